/** JSON columns are text on both databases; these keep the parsing in one place. */
export function toJsonColumn(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export function fromJsonColumn<T>(
  value: string | null | undefined,
): T | undefined {
  return value === null || value === undefined
    ? undefined
    : (JSON.parse(value) as T);
}
