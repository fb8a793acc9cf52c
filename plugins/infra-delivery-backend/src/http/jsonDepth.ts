import { Request, RequestHandler } from 'express';
import { bodyErrors } from './bodyErrors';

/**
 * The deepest nesting a request body may have. Free-form fields (a run's `input`, a step's
 * `config`, task definitions) are stored and serialized again; a body nested thousands of
 * levels deep overflowed the stack there and was answered 500.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests deeper than `max` levels; walks without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') {
      continue;
    }
    if (depth >= max) {
      return true;
    }
    for (const child of Object.values(current)) {
      if (child !== null && typeof child === 'object') {
        pending.push([child, depth + 1]);
      }
    }
  }
  return false;
}

/**
 * The nesting of JSON text read a slice at a time: counts the brackets outside strings, so a
 * body parsed in slices is measured as it is read, without a second walk of what it parsed.
 * Bytes of multi-byte UTF-8 characters are all 0x80 or more, so none is taken for a bracket.
 */
export class JsonNestingScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The deepest nesting seen so far (the root object or array is 1). */
  deepest = 0;

  write(bytes: Uint8Array): void {
    for (const byte of bytes) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
        } else if (byte === 0x5c /* \\ */) {
          this.escaped = true;
        } else if (byte === 0x22 /* " */) {
          this.inString = false;
        }
      } else if (byte === 0x22) {
        this.inString = true;
      } else if (byte === 0x7b /* { */ || byte === 0x5b /* [ */) {
        this.depth += 1;
        this.deepest = Math.max(this.deepest, this.depth);
      } else if (byte === 0x7d /* } */ || byte === 0x5d /* ] */) {
        this.depth -= 1;
      }
    }
  }
}

const depthChecked = new WeakSet<Request>();

/** Marks a body whose nesting was measured while it was read (see {@link JsonNestingScanner}). */
export function markDepthChecked(req: Request): void {
  depthChecked.add(req);
}

/**
 * Refuses a parsed body that nests deeper than `max` levels with a 400 ErrorBody. A runner's
 * large report, parsed a slice at a time, was measured while it was read and is not walked
 * again: one walk of a 5 MB plan would hold the event loop.
 */
export function limitJsonDepth(max = MAX_JSON_DEPTH): RequestHandler {
  return (req, _res, next) => {
    if (!depthChecked.has(req) && nestsDeeperThan(req.body, max)) {
      next(bodyErrors.tooDeep(max));
      return;
    }
    next();
  };
}
