import { NextFunction, Request, Response } from 'express';

/**
 * Query parameters that carry a credential in a URL the service cannot change: the OAuth
 * callback's one-time `code` and signed `state`, and the onboarding template link's
 * `signature`.
 */
export const URL_CREDENTIAL_PARAMETERS = ['code', 'state', 'signature'];

/** The URL with the values of credential parameters replaced. */
export function redactedUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) {
    return url;
  }
  const query = new URLSearchParams(url.slice(queryStart + 1));
  let changed = false;
  for (const name of URL_CREDENTIAL_PARAMETERS) {
    if (query.has(name)) {
      query.set(name, 'redacted');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, queryStart)}?${query}` : url;
}

/**
 * Backstage's request log writes each request's `originalUrl` once the answer is sent. Routing
 * and the handlers read `url` and `query`, so the logged copy can lose its credentials.
 */
export function redactUrlCredentials(
  req: Request,
  _res: Response,
  next: NextFunction,
) {
  req.originalUrl = redactedUrl(req.originalUrl);
  next();
}
