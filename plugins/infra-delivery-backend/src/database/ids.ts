import { randomBytes } from 'node:crypto';

/**
 * A UUIDv7: 48 bits of milliseconds first, so ids sort by creation time and "newest first" is
 * an index scan on the primary key. Within one millisecond a process keeps them increasing.
 */
let lastMillis = 0;
let sequence = 0;

export function newId(now: number = Date.now()): string {
  if (now <= lastMillis) {
    sequence += 1;
    if (sequence > 0xfff) {
      lastMillis += 1;
      sequence = 0;
    }
  } else {
    lastMillis = now;
    sequence = randomBytes(2).readUInt16BE(0) & 0x7ff;
  }
  return uuidV7(lastMillis, sequence);
}

/**
 * The UUIDv7 of a millisecond and a 12-bit sequence number within it (`inMillisecond`), the
 * rest random. The bench's generated history uses it directly to give old rows ids of their
 * own moment.
 */
export function uuidV7(millis: number, inMillisecond: number): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Math.floor(millis), 0, 6);
  bytes[6] = 0x70 | ((inMillisecond >> 8) & 0x0f);
  bytes[7] = inMillisecond & 0xff;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(
    12,
    16,
  )}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
