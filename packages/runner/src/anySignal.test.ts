import { anySignal } from './anySignal';

describe('anySignal', () => {
  const native = (AbortSignal as { any?: unknown }).any;

  describe.each([
    ['with AbortSignal.any', false],
    ['on a Node without AbortSignal.any (18.16 and earlier)', true],
  ])('%s', (_where, withoutNative) => {
    beforeEach(() => {
      if (withoutNative) delete (AbortSignal as { any?: unknown }).any;
    });
    afterEach(() => {
      (AbortSignal as { any?: unknown }).any = native;
    });

    it('aborts with the reason of the first signal that aborts', () => {
      const first = new AbortController();
      const second = new AbortController();
      const signal = anySignal([first.signal, second.signal]);
      expect(signal.aborted).toBe(false);
      second.abort(new Error('second'));
      first.abort(new Error('first'));
      expect(signal.aborted).toBe(true);
      expect(signal.reason).toEqual(new Error('second'));
    });

    it('is aborted at once when one of the signals already is', () => {
      const done = AbortSignal.abort('gone');
      const signal = anySignal([new AbortController().signal, done]);
      expect(signal.aborted).toBe(true);
      expect(signal.reason).toBe('gone');
    });

    it('aborts on a timeout signal', async () => {
      const signal = anySignal([
        new AbortController().signal,
        AbortSignal.timeout(10),
      ]);
      await new Promise(resolve => setTimeout(resolve, 50));
      expect(signal.aborted).toBe(true);
      expect((signal.reason as Error).name).toBe('TimeoutError');
    });
  });
});
