import { Request } from 'express';
import {
  LONG_QUERIES_KEPT,
  LONG_QUERY_STRING,
  rememberLongQueries,
} from './longQueries';

function requestWith(ids: string[]): Request {
  const originalUrl = `/stacks/resource-count?${ids
    .map(id => `stackId=${id}`)
    .join('&')}`;
  return { originalUrl, query: { stackId: ids } } as unknown as Request;
}

const longIds = (tag: string) =>
  Array.from(
    { length: 200 },
    (_, i) => `${tag}-stack-${String(i).padStart(4, '0')}`,
  );

describe('rememberLongQueries', () => {
  it('parses a long query string once and shares its frozen parse', () => {
    const parse = jest.fn((query: Request['query']) => ({ ...query }));
    const parseQuery = rememberLongQueries(parse);
    const request = requestWith(longIds('a'));
    expect(request.originalUrl.length).toBeGreaterThan(LONG_QUERY_STRING);

    const first = parseQuery(request);
    const second = parseQuery(requestWith(longIds('a')));

    expect(parse).toHaveBeenCalledTimes(1);
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen((first as { stackId: string[] }).stackId)).toBe(
      true,
    );
  });

  it('parses a short query string at every request', () => {
    const parse = jest.fn((query: Request['query']) => ({ ...query }));
    const parseQuery = rememberLongQueries(parse);

    parseQuery(requestWith(['one', 'two']));
    parseQuery(requestWith(['one', 'two']));

    expect(parse).toHaveBeenCalledTimes(2);
  });

  it('keeps nothing of a query its schema refuses', () => {
    const parse = jest.fn(() => {
      throw new Error('bad query');
    });
    const parseQuery = rememberLongQueries(parse);

    expect(() => parseQuery(requestWith(longIds('a')))).toThrow('bad query');
    expect(() => parseQuery(requestWith(longIds('a')))).toThrow('bad query');
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it('forgets the least recently used query string first', () => {
    const parse = jest.fn((query: Request['query']) => ({ ...query }));
    const parseQuery = rememberLongQueries(parse);
    for (let i = 0; i < LONG_QUERIES_KEPT; i++) {
      parseQuery(requestWith(longIds(`q${i}`)));
    }
    parseQuery(requestWith(longIds('q0'))); // used again: now the most recent
    parseQuery(requestWith(longIds('new'))); // one more: q1 goes
    parse.mockClear();

    parseQuery(requestWith(longIds('q0')));
    expect(parse).not.toHaveBeenCalled();
    parseQuery(requestWith(longIds('q1')));
    expect(parse).toHaveBeenCalledTimes(1);
  });
});
