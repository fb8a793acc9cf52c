import { BackgroundDrain } from './BackgroundDrain';

describe('BackgroundDrain', () => {
  it('goes round once more for work added while a round ran, and not for every call', async () => {
    const rounds: number[] = [];
    let release!: () => void;
    const firstRound = new Promise<void>(resolve => (release = resolve));
    const drain = new BackgroundDrain(async () => {
      rounds.push(rounds.length + 1);
      if (rounds.length === 1) {
        await firstRound;
      }
    }, jest.fn());

    drain.soon();
    drain.soon();
    drain.soon();
    release();
    await drain.idle();

    expect(rounds).toEqual([1, 2]);
  });

  it('reports a round that failed, and starts again on the next call', async () => {
    const onError = jest.fn();
    let calls = 0;
    const drain = new BackgroundDrain(async () => {
      calls += 1;
      if (calls === 1) {
        throw new Error('database locked');
      }
    }, onError);

    drain.soon();
    await drain.idle();
    drain.soon();
    await drain.idle();

    expect(onError).toHaveBeenCalledWith(new Error('database locked'));
    expect(calls).toBe(2);
  });
});
