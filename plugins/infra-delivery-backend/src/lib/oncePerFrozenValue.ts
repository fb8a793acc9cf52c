import { freezeAnswer } from './frozenAnswers';

/**
 * `map`, made once per frozen value: the value of a frozen input is mapped on its first call,
 * frozen as an answer (`freezeAnswer`) and given again while the input lives; any other input
 * is mapped on every call. Rows remembered by the read caches are frozen
 * (database/rememberedReads.ts), so a list page read again from memory reuses its mapped items
 * and their bytes (optimizations 38 and 40). `map` must depend on its input alone: a mapping that
 * reads the clock or a setting would give its first answer for ever.
 */
export function mappedOnce<In extends object, Out extends object>(
  map: (value: In) => Out,
): (value: In) => Out {
  const mapped = new WeakMap<In, Out>();
  return value => {
    if (!Object.isFrozen(value)) {
      return map(value);
    }
    let answer = mapped.get(value);
    if (answer === undefined) {
      answer = freezeAnswer(map(value));
      mapped.set(value, answer);
    }
    return answer;
  };
}

const derivedValues = new WeakMap<object, Map<string, unknown>>();

/**
 * `derive()`, kept per frozen `from` and `key` while `from` lives, and computed on every call
 * for anything else: what a request works out from remembered rows (a page of a list's ids,
 * say) is the same until the rows change (optimization 39). `key` names the derivation and
 * its inputs other than `from`; the value is frozen, as it is shared.
 */
export function derivedOnce<T>(from: object, key: string, derive: () => T): T {
  if (!Object.isFrozen(from)) {
    return derive();
  }
  let byKey = derivedValues.get(from);
  if (!byKey) {
    byKey = new Map();
    derivedValues.set(from, byKey);
  }
  if (byKey.has(key)) {
    return byKey.get(key) as T;
  }
  const value = derive();
  if (value !== null && typeof value === 'object') Object.freeze(value);
  byKey.set(key, value);
  return value;
}
