/** The bytes of answers that never change, by the object answered (see `freezeAnswer`). */
const frozenAnswers = new WeakMap<object, Buffer | undefined>();

/**
 * Marks `answer` and everything in it as never changing again (deeply frozen), so that the
 * router serializes it once however often it is sent (http/sendJson.ts): for answers kept in
 * memory and sent as they are, such as a cached metric series (#15). Returns `answer`.
 */
export function freezeAnswer<T extends object>(answer: T): T {
  deepFreeze(answer);
  frozenAnswers.set(answer, undefined);
  return answer;
}

function deepFreeze(value: unknown): void {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) {
      deepFreeze(child);
    }
    Object.freeze(value);
  }
}

/**
 * The JSON bytes of an answer frozen with `freezeAnswer`, serialized on the first call and
 * kept while the object lives; undefined for any other value.
 */
export function frozenAnswerBytes(answer: unknown): Buffer | undefined {
  if (
    answer === null ||
    typeof answer !== 'object' ||
    !frozenAnswers.has(answer)
  ) {
    return undefined;
  }
  let bytes = frozenAnswers.get(answer);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(answer));
    frozenAnswers.set(answer, bytes);
  }
  return bytes;
}
