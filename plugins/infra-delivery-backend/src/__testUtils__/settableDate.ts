/**
 * The wall clock of a test file, and only the wall clock: `Date` stands still until the test
 * moves it, while timers, promises and the databases' sockets run for real. For tests whose
 * outcome depends on how old something is (a runner's last sighting, a lease), so that a loaded
 * machine cannot age it past a window between two requests, and so that no test sleeps for it.
 */
export function useSettableDate(): { advance(ms: number): void } {
  beforeAll(() => {
    jest.useFakeTimers({
      doNotFake: [
        'hrtime',
        'nextTick',
        'performance',
        'queueMicrotask',
        'requestAnimationFrame',
        'cancelAnimationFrame',
        'requestIdleCallback',
        'cancelIdleCallback',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'setTimeout',
        'clearTimeout',
      ],
    });
  });
  afterAll(() => {
    jest.useRealTimers();
  });
  return { advance: ms => jest.setSystemTime(Date.now() + ms) };
}
