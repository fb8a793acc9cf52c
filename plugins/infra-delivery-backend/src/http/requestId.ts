import { randomUUID } from 'node:crypto';
import { NextFunction, Request, Response } from 'express';

export const REQUEST_ID_HEADER = 'x-request-id';

const ACCEPTABLE_INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Gives every request an id, sent back as `x-request-id` and written into error bodies and
 * log lines. A well-formed id from a proxy in front is kept so the trail stays one.
 */
export function requestIdMiddleware(
  req: Request,
  res: Response,
  next: NextFunction,
) {
  const incoming = req.header(REQUEST_ID_HEADER);
  const requestId =
    incoming && ACCEPTABLE_INCOMING_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = requestId;
  res.setHeader(REQUEST_ID_HEADER, requestId);
  next();
}

export function requestIdOf(res: Response): string | undefined {
  return res.locals.requestId;
}
