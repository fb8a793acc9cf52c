import { readPages } from './readPages';

/** A list of `total` numbers served `limit` at a time, its cursor the next offset. */
function pagesOf(total: number, limit: number) {
  const cursors: (string | undefined)[] = [];
  const readPage = async (cursor?: string) => {
    cursors.push(cursor);
    const from = Number(cursor ?? 0);
    const next = from + limit;
    return {
      data: Array.from(
        { length: Math.max(0, Math.min(limit, total - from)) },
        (_, i) => from + i,
      ),
      meta: {
        limit,
        totalCount: total,
        ...(next < total ? { nextCursor: String(next) } : {}),
      },
    };
  };
  return { cursors, readPage };
}

describe('readPages', () => {
  it('reads every page, following the cursors, with the whole count', async () => {
    const { cursors, readPage } = pagesOf(5, 2);
    await expect(readPages(readPage)).resolves.toEqual({
      items: [0, 1, 2, 3, 4],
      totalCount: 5,
    });
    expect(cursors).toEqual([undefined, '2', '4']);
  });

  it('stops after the page that reaches the most it may read', async () => {
    const { cursors, readPage } = pagesOf(10, 3);
    await expect(readPages(readPage, 4)).resolves.toEqual({
      items: [0, 1, 2, 3, 4, 5],
      totalCount: 10,
    });
    expect(cursors).toEqual([undefined, '3']);
  });
});
