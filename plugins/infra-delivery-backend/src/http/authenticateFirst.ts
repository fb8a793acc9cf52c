import { Request, RequestHandler } from 'express';
import { Caller } from '../auth/Caller';

const resolved = new WeakMap<Request, Caller>();

/**
 * Resolves the caller before the body is read: on the runner routes, whose bodies may be
 * large and compressed, nothing is parsed or inflated for a caller without a valid credential
 * (a 401 answers first). The operation binder takes the caller resolved here.
 */
export function authenticateFirst(
  resolveCaller: (req: Request) => Promise<Caller>,
): RequestHandler {
  return (req, _res, next) => {
    resolveCaller(req).then(caller => {
      resolved.set(req, caller);
      next();
    }, next);
  };
}

/** The caller of the request: the one resolved before its body was read, if any. */
export function callerResolver(
  resolveCaller: (req: Request) => Promise<Caller>,
): (req: Request) => Promise<Caller> {
  return async req => resolved.get(req) ?? resolveCaller(req);
}
