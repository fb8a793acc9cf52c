import { randomUUID } from 'node:crypto';
import { largestFirst } from './largestFirst';

describe('largestFirst', () => {
  it('answers what sorting everything and taking the first would', () => {
    for (const size of [0, 1, 2, 50, 51, 52, 600]) {
      const values = Array.from({ length: size }, () => randomUUID());
      const sorted = [...values].sort().reverse();
      for (const count of [1, 3, 51, size, size + 5]) {
        expect(largestFirst(values, count)).toEqual(sorted.slice(0, count));
      }
    }
  });

  it('keeps equal values and leaves its input alone', () => {
    const values = ['b', 'a', 'c', 'b', 'a'];
    expect(largestFirst(values, 4)).toEqual(['c', 'b', 'b', 'a']);
    expect(values).toEqual(['b', 'a', 'c', 'b', 'a']);
  });

  it('answers nothing for no count', () => {
    expect(largestFirst(['a', 'b'], 0)).toEqual([]);
  });
});
