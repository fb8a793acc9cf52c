import { ClaimWaits } from './ClaimWaits';

describe('ClaimWaits', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('ends the waits of the woken organization only', async () => {
    const waits = new ClaimWaits();
    const acme = waits.wait('acme', 20_000);
    const other = waits.wait('other', 20_000);
    waits.wake('acme');
    await expect(acme).resolves.toBe(true);

    jest.advanceTimersByTime(20_000);
    await expect(other).resolves.toBe(false);
  });

  it('ends a wait when its time is up or its signal aborts', async () => {
    const waits = new ClaimWaits();
    const timed = waits.wait('acme', 1_000);
    jest.advanceTimersByTime(1_000);
    await expect(timed).resolves.toBe(false);

    const gone = new AbortController();
    const aborted = waits.wait('acme', 20_000, gone.signal);
    gone.abort();
    await expect(aborted).resolves.toBe(false);
    // Nothing is left to wake.
    waits.wake('acme');
    await expect(waits.wait('acme', 0, undefined)).resolves.toBe(false);
  });

  it('ends every wait when closed, and waits no more', async () => {
    const waits = new ClaimWaits();
    const held = [waits.wait('acme', 20_000), waits.wait('other', 20_000)];
    waits.close();
    await expect(Promise.all(held)).resolves.toEqual([true, true]);
    expect(waits.isClosed).toBe(true);
    await expect(waits.wait('acme', 20_000)).resolves.toBe(false);
  });
});
