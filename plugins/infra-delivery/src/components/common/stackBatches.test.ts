import { loadInBatches, STACKS_PER_REQUEST } from './stackBatches';

describe('loadInBatches', () => {
  it('asks for at most 200 stacks at a time and keeps the order of their answers', async () => {
    const ids = Array.from({ length: 450 }, (_, i) => `stack-${i}`);
    const batches: string[][] = [];

    const loaded = await loadInBatches(ids, async batch => {
      batches.push(batch);
      return batch.map(id => id.toUpperCase());
    });

    expect(batches.map(batch => batch.length)).toEqual([
      STACKS_PER_REQUEST,
      STACKS_PER_REQUEST,
      50,
    ]);
    expect(batches.flat()).toEqual(ids);
    expect(loaded).toEqual(ids.map(id => id.toUpperCase()));
  });

  it('asks nothing for no stacks', async () => {
    const load = jest.fn();
    expect(await loadInBatches([], load)).toEqual([]);
    expect(load).not.toHaveBeenCalled();
  });
});
