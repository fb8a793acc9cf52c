import { sharedPerTurn } from './sharedPerTurn';

describe('sharedPerTurn', () => {
  it('sends one read for the callers of a turn, and a new one for a later turn', async () => {
    let reads = 0;
    const shared = sharedPerTurn(async () => ++reads);

    const together = await Promise.all([shared(), shared(), shared()]);
    expect(together).toEqual([1, 1, 1]);

    expect(await shared()).toBe(2);
    expect(reads).toBe(2);
  });

  it('starts the read only after the turn in which its callers asked', async () => {
    const events: string[] = [];
    const shared = sharedPerTurn(async () => {
      events.push('read');
      return events.length;
    });

    const answer = shared();
    events.push('asked in the same turn');
    await answer;

    expect(events).toEqual(['asked in the same turn', 'read']);
  });

  it('lets a caller that asks once the read has started wait for a read of its own', async () => {
    let release: () => void = () => {};
    let reads = 0;
    const shared = sharedPerTurn(async () => {
      reads++;
      await new Promise<void>(resolve => {
        release = resolve;
      });
      return reads;
    });

    const first = shared();
    await new Promise(resolve => setImmediate(resolve));
    await new Promise(resolve => setImmediate(resolve));
    // The first read was sent: a caller now may follow a change it would not see.
    const second = shared();
    release();
    expect(await first).toBe(1);
    await new Promise(resolve => setImmediate(resolve));
    release();
    expect(await second).toBe(2);
  });
});
