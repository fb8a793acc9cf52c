import { deepFreeze } from '../lib/deepFreeze';

/** Rows kept at most per cache, over all of its remembered reads. */
export const READ_CACHE_ROWS = 5_000;

/** A read that returns more rows than this is not remembered. */
export const READ_CACHE_ROWS_PER_READ = 1_001;

/**
 * A read's key: its SQL, then each value with its type and its length, so that no two lists
 * of values give the same text. `JSON.stringify` of the values escaped the 8 KB JSON array of
 * a 200-id list's groups again at every read (optimization 39).
 */
export function readKey(sql: string, bindings: readonly unknown[]): string {
  let key = sql;
  for (const value of bindings) {
    const text = valueText(value);
    key += `\u0000${typeof value}${text.length}:${text}`;
  }
  return key;
}

function valueText(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    return String(value);
  }
  if (value instanceof Date) {
    return value.toISOString();
  }
  return JSON.stringify(value) ?? '';
}

/**
 * Reads remembered while the database stays at one version (SQLite's change counters,
 * PostgreSQL's snapshot): at another version they are all forgotten. The least recently used
 * read goes first once more than `READ_CACHE_ROWS` rows are kept. Rows are frozen when
 * remembered: they are shared by every later reader, and one that changed a row would change
 * it for all.
 */
export class RememberedReads {
  private at = '';
  private readonly reads = new Map<string, readonly unknown[]>();
  private rows = 0;

  /** The version the remembered reads were taken at. */
  get version(): string {
    return this.at;
  }

  /** Moves to `version`, forgetting every read when it is another. */
  moveTo(version: string): void {
    if (version !== this.at) {
      this.at = version;
      this.reads.clear();
      this.rows = 0;
    }
  }

  /** The rows of a remembered read, or undefined. */
  recall(key: string): readonly unknown[] | undefined {
    const remembered = this.reads.get(key);
    if (remembered) {
      // The least recently used read is the first dropped.
      this.reads.delete(key);
      this.reads.set(key, remembered);
    }
    return remembered;
  }

  /** Remembers the rows of a read at the current version, unless there are too many. */
  remember(key: string, rows: unknown[]): void {
    if (rows.length > READ_CACHE_ROWS_PER_READ) {
      return;
    }
    deepFreeze(rows);
    this.reads.set(key, rows);
    this.rows += rows.length + 1;
    while (this.rows > READ_CACHE_ROWS) {
      const [oldestKey, oldest] = this.reads.entries().next().value!;
      this.reads.delete(oldestKey);
      this.rows -= oldest.length + 1;
    }
  }
}
