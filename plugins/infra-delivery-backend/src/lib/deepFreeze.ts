/**
 * Freezes `value` and every object or array within it, for values shared by every later
 * reader (remembered rows, frozen answers, parsed queries): one that changed it would change it
 * for all. A binary value (a Buffer, a typed array) cannot be frozen and is left as it is.
 */
export function deepFreeze(value: unknown): void {
  if (
    value === null ||
    typeof value !== 'object' ||
    Object.isFrozen(value) ||
    ArrayBuffer.isView(value)
  ) {
    return;
  }
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
}
