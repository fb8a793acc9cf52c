/** The headline Terraform and OpenTofu print when another command holds the state's lock. */
export const STATE_LOCK_HEADLINE = 'Error acquiring the state lock';

/** The lock as the tool describes it under "Lock Info:" (every field as printed). */
export interface StateLock {
  id?: string;
  path?: string;
  operation?: string;
  who?: string;
  version?: string;
  created?: string;
  info?: string;
  /**
   * The backend's own words ("Error message: resource temporarily unavailable"), with the lines
   * the tool wrapped them onto joined.
   */
  errorMessage?: string;
  /** Whether the tool printed a "Lock Info:" (whose, see `heldLockOf`). */
  described?: boolean;
}

/** The tool's name of each field, as it prints it under "Lock Info:". */
export const FIELDS: Record<string, Exclude<keyof StateLock, 'described'>> = {
  ID: 'id',
  Path: 'path',
  Operation: 'operation',
  Who: 'who',
  Version: 'version',
  Created: 'created',
  Info: 'info',
  'Error message': 'errorMessage',
};

/** The headline as a diagnostic line, with or without the box (`│ Error: Error acquiring …`). */
const LOCK_HEADLINE_LINE = new RegExp(`^[\\s│|]*Error: ${STATE_LOCK_HEADLINE}`);

/** `ID:        ef25…`, with or without the diagnostic's box (`│   ID: …`). */
const FIELD_LINE =
  /^[\s│|]*(ID|Path|Operation|Who|Version|Created|Info|Error message):[ \t]*(.*)$/;

/** The diagnostic's box and indentation, before a line's text. */
const BOX = /^[\s│|]*/;

/**
 * Reads a command's output, line by line, for Terraform's (or OpenTofu's) "Error acquiring the
 * state lock" and the lock it names: its id, who holds it and since when. Only the lines after
 * that headline count, and each field once (the first lock described).
 */
export class StateLockReader {
  private found = false;
  private readonly fields: StateLock = {};
  /** Reading the error message's further lines (the tool wraps a long one). */
  private inErrorMessage = false;

  read(line: string): void {
    if (!this.found) {
      this.found = LOCK_HEADLINE_LINE.test(line);
      return;
    }
    const text = line.replace(BOX, '').trim();
    const match = FIELD_LINE.exec(line);
    if (this.inErrorMessage && text && !match && text !== 'Lock Info:') {
      this.fields.errorMessage = `${this.fields.errorMessage} ${text}`;
      return;
    }
    this.inErrorMessage = false;
    if (text === 'Lock Info:') {
      this.fields.described ??= true;
      return;
    }
    const key = match && FIELDS[match[1]];
    const value = match?.[2].trim();
    if (key && value && this.fields[key] === undefined) {
      this.fields[key] = value;
      this.inErrorMessage = key === 'errorMessage';
    }
  }

  /** The lock, once the output said that it could not be acquired. */
  get lock(): StateLock | undefined {
    return this.found ? { ...this.fields } : undefined;
  }
}

/** The backends whose words tell that the "Lock Info" is the command's own request. */
export type LockingBackend = 'pg' | 'http';

/** What the tool's output says of the lock that another command holds. */
export interface HeldLock {
  /** The backend, when its words name it. */
  backend?: LockingBackend;
  /** The holder's lock, as far as it is known (nothing of it, from some backends). */
  holder: StateLock;
}

/** The pg backend: an advisory lock another session holds (on the state, or on its creation). */
const PG_LOCKED =
  /^(Cannot lock workspace; already locked for workspace creation|Already locked for workspace creation|Workspace is already locked): /;

/** The http backend: the server answered 409/423, naming the holder's lock ID or not. */
const HTTP_LOCKED_ID = /^HTTP remote state already locked: ID=(\S+)/;
const HTTP_LOCKED_UNDESCRIBED =
  /^HTTP remote state already locked, failed to (read|unmarshal) body/;

/**
 * Whose lock the tool described. The local backend, S3 and most others print the holder's
 * "Lock Info"; the pg and http backends (Terraform 1.11, captured in
 * `__fixtures__/backend-errors`) print the lock this command asked for — its own ID, operation
 * and time — and name the holder in their error message only (http: its ID) or not at all (pg).
 * Their Lock Info must not be read as the holder's.
 */
export function heldLockOf(lock: StateLock): HeldLock {
  const said = lock.errorMessage ?? '';
  if (PG_LOCKED.test(said)) {
    return { backend: 'pg', holder: {} };
  }
  const httpId = HTTP_LOCKED_ID.exec(said)?.[1];
  if (httpId) {
    return { backend: 'http', holder: { id: httpId } };
  }
  if (HTTP_LOCKED_UNDESCRIBED.test(said)) {
    return { backend: 'http', holder: {} };
  }
  const holder = { ...lock };
  delete holder.described;
  return { holder };
}
