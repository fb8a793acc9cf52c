/** JSON text sent as it is, for what `JSON.stringify` cannot write (1e400, `__proto__` keys). */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * Stands in a string for bytes that are not UTF-8; `bodyBytes` puts them in its place. A
 * JavaScript string cannot hold them.
 */
export const INVALID_UTF8 = '\uE000not-utf8\uE000';
const INVALID_UTF8_BYTES = Buffer.from([0xc3, 0x28, 0xff, 0xfe]);

/** `value` as JSON text, with RawJson written as it is. */
export function jsonText(value: unknown): string {
  if (value instanceof RawJson) {
    return value.text;
  }
  if (Array.isArray(value)) {
    return `[${value.map(jsonText).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => `${JSON.stringify(key)}:${jsonText(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The bytes of a body's text, with every INVALID_UTF8 replaced by bytes that are not UTF-8. */
export function bodyBytes(text: string): Buffer {
  const parts = text.split(INVALID_UTF8).map(part => Buffer.from(part));
  return Buffer.concat(
    parts.flatMap((part, i) => (i === 0 ? [part] : [INVALID_UTF8_BYTES, part])),
  );
}

/** JSON nested `depth` objects deep. */
export function nestedJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}
