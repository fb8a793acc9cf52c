import { Request } from 'express';
import { deepFreeze } from '../lib/deepFreeze';

/** Query strings longer than this are parsed once while they are kept; shorter ones each time. */
export const LONG_QUERY_STRING = 1_024;

/** How many long query strings each operation keeps parsed, the least recently used going first. */
export const LONG_QUERIES_KEPT = 32;

/**
 * `parse` of a request's query, kept for a query string longer than `LONG_QUERY_STRING`: the
 * 200 ids of #13's and #24's lists were checked one by one (unknown parameters, NUL characters)
 * and parsed by the operation's schema at every request, 4–5 % of the backend's CPU under #24
 * (docs/benchmarks.md, optimization 43), while a dashboard asks the same 200 ids again and
 * again. The same query string always gives the same `req.query` (the root app's query parser
 * is one function of the string), so its parse can be shared; it is frozen, as every later
 * request gets it. A query that fails its schema throws and is not kept. Short query strings
 * cost less to parse than to look up and are not kept.
 */
export function rememberLongQueries(
  parse: (query: Request['query']) => unknown,
): (req: Request) => unknown {
  const kept = new Map<string, unknown>();
  return req => {
    const url = req.originalUrl;
    const start = url.indexOf('?');
    if (start < 0 || url.length - start - 1 <= LONG_QUERY_STRING) {
      return parse(req.query);
    }
    const queryString = url.slice(start + 1);
    let parsed = kept.get(queryString);
    if (parsed === undefined) {
      parsed = parse(req.query);
      deepFreeze(parsed);
      if (kept.size >= LONG_QUERIES_KEPT) {
        kept.delete(kept.keys().next().value!);
      }
    } else {
      kept.delete(queryString);
    }
    kept.set(queryString, parsed);
    return parsed;
  };
}
