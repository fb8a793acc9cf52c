import { frozenAnswerBytes } from './frozenAnswers';
import { derivedOnce, mappedOnce } from './oncePerFrozenValue';

describe('once per frozen value', () => {
  describe('mappedOnce', () => {
    const toRun = jest.fn((row: { id: string; input: string }) => ({
      id: row.id,
      input: JSON.parse(row.input) as { region: string },
    }));
    const toListedRun = mappedOnce(toRun);

    beforeEach(() => toRun.mockClear());

    it('maps a frozen row once and gives the same frozen answer again', () => {
      const row = Object.freeze({ id: 'r1', input: '{"region":"eu-west-1"}' });
      const first = toListedRun(row);
      const second = toListedRun(row);
      expect(second).toBe(first);
      expect(toRun).toHaveBeenCalledTimes(1);
      expect(Object.isFrozen(first.input)).toBe(true);
      expect(frozenAnswerBytes(first)?.toString()).toBe(
        '{"id":"r1","input":{"region":"eu-west-1"}}',
      );
    });

    it('maps a row that is not frozen on every call, and leaves its answer open', () => {
      const row = { id: 'r1', input: '{"region":"eu-west-1"}' };
      const first = toListedRun(row);
      row.input = '{"region":"us-east-1"}';
      const second = toListedRun(row);
      expect(toRun).toHaveBeenCalledTimes(2);
      expect(second.input.region).toBe('us-east-1');
      expect(Object.isFrozen(first)).toBe(false);
      expect(frozenAnswerBytes(first)).toBeUndefined();
    });
  });

  describe('derivedOnce', () => {
    it('derives once per frozen value and key, and freezes what it keeps', () => {
      const ids = Object.freeze(['r3', 'r2', 'r1']);
      const derive = jest.fn(() => ids.filter(id => id < 'r3'));
      const first = derivedOnce(ids, 'after:r3', derive);
      expect(derivedOnce(ids, 'after:r3', derive)).toBe(first);
      expect(first).toEqual(['r2', 'r1']);
      expect(Object.isFrozen(first)).toBe(true);
      expect(derive).toHaveBeenCalledTimes(1);
      // Another key is another derivation.
      expect(derivedOnce(ids, 'after:r2', () => ['r1'])).toEqual(['r1']);
    });

    it('derives again on every call from a value that is not frozen', () => {
      const ids = ['r2', 'r1'];
      const derive = jest.fn(() => [...ids]);
      derivedOnce(ids, 'all', derive);
      ids.push('r0');
      expect(derivedOnce(ids, 'all', derive)).toEqual(['r2', 'r1', 'r0']);
      expect(derive).toHaveBeenCalledTimes(2);
    });
  });
});
