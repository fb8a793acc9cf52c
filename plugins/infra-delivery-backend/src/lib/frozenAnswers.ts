import { deepFreeze } from './deepFreeze';

/**
 * Where a frozen answer keeps its JSON bytes once they are made: a hidden property (a symbol,
 * not enumerable, so JSON, spreads and equality leave it out) holding a box the freeze leaves
 * writable. A WeakMap from answer to bytes did the same, but chained behind the WeakMap from a
 * remembered row to its answer (`mappedOnce`) it doubled the ephemerons V8 marks in every full
 * collection: half of the longest pauses of a 10,000-page walk (docs/benchmarks.md).
 */
const BYTES = Symbol('infra-delivery.answerBytes');

interface BytesBox {
  bytes?: Buffer;
}

function bytesBoxOf(answer: unknown): BytesBox | undefined {
  return answer !== null && typeof answer === 'object'
    ? (answer as { [BYTES]?: BytesBox })[BYTES]
    : undefined;
}

/**
 * Marks `answer` and everything in it as never changing again (deeply frozen), so that the
 * router serializes it once however often it is sent (http/sendJson.ts): for answers kept in
 * memory and sent as they are, such as a cached metric series (#15). Returns `answer`. An
 * object frozen already is only deeply frozen: it has no room for its bytes, and is
 * serialized each time it is sent.
 */
export function freezeAnswer<T extends object>(answer: T): T {
  if (Object.isExtensible(answer) && !bytesBoxOf(answer)) {
    Object.defineProperty(answer, BYTES, { value: {} satisfies BytesBox });
  }
  deepFreeze(answer);
  return answer;
}

/**
 * The JSON bytes of an answer frozen with `freezeAnswer`, serialized on the first call and
 * kept while the object lives; undefined for any other value.
 */
export function frozenAnswerBytes(answer: unknown): Buffer | undefined {
  const box = bytesBoxOf(answer);
  if (!box) {
    return undefined;
  }
  box.bytes ??= Buffer.from(JSON.stringify(answer));
  return box.bytes;
}

const COMMA = Buffer.from(',');
const OPEN_ARRAY = Buffer.from('[');
const CLOSE_ARRAY = Buffer.from(']');
const CLOSE_OBJECT = Buffer.from('}');

function isFrozenAnswer(value: unknown): boolean {
  return bytesBoxOf(value) !== undefined;
}

/** Whether `answer` is an object with a frozen answer in one of its arrays (a list's `data`). */
function holdsFrozenItems(answer: unknown): answer is Record<string, unknown> {
  if (
    answer === null ||
    typeof answer !== 'object' ||
    Array.isArray(answer) ||
    typeof (answer as { toJSON?: unknown }).toJSON === 'function'
  ) {
    return false;
  }
  for (const value of Object.values(answer)) {
    if (Array.isArray(value) && value.some(isFrozenAnswer)) {
      return true;
    }
  }
  return false;
}

function jsonBytes(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value) ?? 'null');
}

/**
 * The JSON of `answer`, the same text as `JSON.stringify(answer)`: the kept bytes of a frozen
 * answer; for an object whose arrays hold frozen answers (a list of items mapped with
 * `mappedOnce`), those items' kept bytes joined with the rest serialized; otherwise the JSON
 * text. Joining kept bytes skips serializing the items and encoding their text again, the
 * largest part of sending a page of runs (docs/benchmarks.md, optimization 38).
 */
export function answerJson(answer: unknown): string | Buffer {
  const whole = frozenAnswerBytes(answer);
  if (whole) {
    return whole;
  }
  if (!holdsFrozenItems(answer)) {
    return JSON.stringify(answer) ?? '';
  }
  const parts: Buffer[] = [];
  for (const [key, value] of Object.entries(answer)) {
    const text = `${parts.length ? ',' : '{'}${JSON.stringify(key)}:`;
    if (Array.isArray(value)) {
      parts.push(Buffer.from(text), OPEN_ARRAY);
      value.forEach((item, index) => {
        if (index) parts.push(COMMA);
        parts.push(frozenAnswerBytes(item) ?? jsonBytes(item));
      });
      parts.push(CLOSE_ARRAY);
    } else {
      const json = JSON.stringify(value);
      // JSON leaves out a property whose value has no JSON (undefined, a function).
      if (json !== undefined) parts.push(Buffer.from(text + json));
    }
  }
  parts.push(CLOSE_OBJECT);
  return Buffer.concat(parts);
}
