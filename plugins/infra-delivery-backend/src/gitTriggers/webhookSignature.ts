import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Whether `signatureHeader` (`sha256=<hex>`, GitHub's `X-Hub-Signature-256`) is the HMAC-SHA256
 * of the exact body bytes under the App's webhook secret, compared in constant time.
 */
export function isValidWebhookSignature(
  secret: string,
  body: Buffer,
  signatureHeader: string | undefined,
): boolean {
  const match = signatureHeader?.match(/^sha256=([0-9a-f]{64})$/i);
  if (!match) {
    return false;
  }
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(match[1], 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The `X-Hub-Signature-256` GitHub would send with `body`. */
export function webhookSignature(
  secret: string,
  body: string | Buffer,
): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
