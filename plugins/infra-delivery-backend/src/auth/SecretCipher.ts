import {
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
} from 'node:crypto';
import { LoggerService } from '@backstage/backend-plugin-api';
import { ServiceSecretStore } from '../database/ServiceSecretStore';

const FORMAT = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;

/** The name under which a generated key is kept when none is configured. */
export const GENERATED_SECRETS_KEY_NAME = 'secrets-encryption-key';

/** A sealed value does not open: another key sealed it, or it was altered. */
export class SecretUnreadableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretUnreadableError';
  }
}

/**
 * Encrypts secrets kept at rest (OAuth client secrets, members' forge tokens) with AES-256-GCM.
 *
 * A sealed value reads `v1.<key id>.<iv>.<tag>.<ciphertext>`, base64url parts. The key id (a
 * hash prefix of the key) tells a value sealed under another key apart from an altered one. The
 * `context` names where the value belongs (table, row, column) and is authenticated with it, so
 * a value copied into another row does not open there.
 */
export class SecretCipher {
  private readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== KEY_BYTES) {
      throw new Error(
        `The secrets key must be ${KEY_BYTES} bytes, not ${key.length}`,
      );
    }
    this.keyId = createHash('sha256')
      .update(key)
      .digest()
      .subarray(0, 6)
      .toString('base64url');
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([
      cipher.update(plaintext, 'utf8'),
      cipher.final(),
    ]);
    return [
      FORMAT,
      this.keyId,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      ciphertext.toString('base64url'),
    ].join('.');
  }

  open(sealed: string, context: string): string {
    const [format, keyId, iv, tag, ciphertext, rest] = sealed.split('.');
    if (
      format !== FORMAT ||
      iv === undefined ||
      tag === undefined ||
      ciphertext === undefined ||
      rest !== undefined
    ) {
      throw new SecretUnreadableError('The sealed value is malformed');
    }
    if (keyId !== this.keyId) {
      throw new SecretUnreadableError(
        'The value was sealed with another secrets key',
      );
    }
    try {
      const decipher = createDecipheriv(
        'aes-256-gcm',
        this.key,
        Buffer.from(iv, 'base64url'),
      );
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretUnreadableError(
        'The sealed value does not authenticate here',
      );
    }
  }
}

/**
 * The cipher of the configured `infraDelivery.secretsKey`, or, without one, of a key generated
 * once and shared by every instance through the database (with a warning: whoever reads a copy
 * of the database then reads the secrets too).
 */
export async function createSecretCipher(options: {
  configuredKey?: Buffer;
  serviceSecrets: ServiceSecretStore;
  logger: LoggerService;
}): Promise<SecretCipher> {
  if (options.configuredKey) {
    return new SecretCipher(options.configuredKey);
  }
  options.logger.warn(
    'infraDelivery.secretsKey is not configured: secrets at rest are encrypted with a key kept in the plugin database. Configure a key (base64 of 32 random bytes) in production.',
  );
  return new SecretCipher(
    await options.serviceSecrets.getOrCreate(GENERATED_SECRETS_KEY_NAME),
  );
}
