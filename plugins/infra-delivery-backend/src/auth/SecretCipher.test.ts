import { randomBytes } from 'node:crypto';
import { mockServices } from '@backstage/backend-test-utils';
import { ServiceSecretStore } from '../database/ServiceSecretStore';
import {
  createSecretCipher,
  GENERATED_SECRETS_KEY_NAME,
  SecretCipher,
  SecretUnreadableError,
} from './SecretCipher';

describe('SecretCipher', () => {
  const cipher = new SecretCipher(randomBytes(32));

  it('opens what it sealed, in the same context only', () => {
    const sealed = cipher.seal('gho_token', 'logins/a/b/access_token');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('gho_token');
    expect(cipher.open(sealed, 'logins/a/b/access_token')).toBe('gho_token');
    expect(() => cipher.open(sealed, 'logins/a/c/access_token')).toThrow(
      SecretUnreadableError,
    );
  });

  it('seals the same value differently every time', () => {
    expect(cipher.seal('same', 'context')).not.toBe(
      cipher.seal('same', 'context'),
    );
  });

  it('refuses an altered value', () => {
    const sealed = cipher.seal('secret value', 'context');
    const parts = sealed.split('.');
    const ciphertext = Buffer.from(parts[4], 'base64url');
    ciphertext[0] ^= 1;
    parts[4] = ciphertext.toString('base64url');
    expect(() => cipher.open(parts.join('.'), 'context')).toThrow(
      'does not authenticate',
    );
    expect(() => cipher.open('v1.only.three', 'context')).toThrow('malformed');
  });

  it('tells a value sealed under another key apart', () => {
    const other = new SecretCipher(randomBytes(32));
    expect(() =>
      other.open(cipher.seal('secret', 'context'), 'context'),
    ).toThrow('sealed with another secrets key');
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new SecretCipher(randomBytes(16))).toThrow('32 bytes');
  });
});

describe('createSecretCipher', () => {
  function fakeSecretStore() {
    const values = new Map<string, Buffer>();
    const getOrCreate = jest.fn(async (name: string) => {
      if (!values.has(name)) {
        values.set(name, randomBytes(32));
      }
      return values.get(name)!;
    });
    return { getOrCreate } as unknown as ServiceSecretStore & {
      getOrCreate: typeof getOrCreate;
    };
  }

  it('uses the configured key without a warning', async () => {
    const logger = mockServices.logger.mock();
    const key = randomBytes(32);
    const store = fakeSecretStore();
    const cipher = await createSecretCipher({
      configuredKey: key,
      serviceSecrets: store,
      logger,
    });
    const sealed = cipher.seal('secret', 'context');
    expect(new SecretCipher(key).open(sealed, 'context')).toBe('secret');
    expect(store.getOrCreate).not.toHaveBeenCalled();
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('falls back to a key kept in the database, and warns', async () => {
    const logger = mockServices.logger.mock();
    const store = fakeSecretStore();
    const first = await createSecretCipher({ serviceSecrets: store, logger });
    const second = await createSecretCipher({ serviceSecrets: store, logger });
    expect(store.getOrCreate).toHaveBeenCalledWith(GENERATED_SECRETS_KEY_NAME);
    expect(second.open(first.seal('secret', 'context'), 'context')).toBe(
      'secret',
    );
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringContaining('infraDelivery.secretsKey is not configured'),
    );
  });
});
