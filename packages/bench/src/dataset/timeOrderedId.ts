import { randomBytes } from 'node:crypto';

/**
 * A UUIDv7 for a moment of the generated history: the same layout as the plugin's ids (48
 * bits of milliseconds first), with `sequence` keeping ids of one millisecond increasing.
 */
export function timeOrderedId(millis: number, sequence: number): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Math.floor(millis), 0, 6);
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(
    12,
    16,
  )}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
