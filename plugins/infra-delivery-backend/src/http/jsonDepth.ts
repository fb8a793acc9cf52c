import { RequestHandler } from 'express';
import { InfraDeliveryError } from '../errors';
import { wasParsedInSlices } from './incrementalJsonBody';

/**
 * The deepest nesting a request body may have. Free-form fields (a run's `input`, a step's
 * `config`, task definitions) are stored and serialized again; a body nested thousands of
 * levels deep overflowed the stack there and was answered 500.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests deeper than `max` levels; walks without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') {
      continue;
    }
    if (depth >= max) {
      return true;
    }
    for (const child of Object.values(current)) {
      if (child !== null && typeof child === 'object') {
        pending.push([child, depth + 1]);
      }
    }
  }
  return false;
}

/**
 * Refuses a parsed body that nests deeper than `max` levels with a 400 ErrorBody. A runner's
 * large report, parsed a slice at a time, is not walked again here: only an authenticated
 * runner can send one, and one walk of a 5 MB plan would hold the event loop.
 */
export function limitJsonDepth(max = MAX_JSON_DEPTH): RequestHandler {
  return (req, _res, next) => {
    if (!wasParsedInSlices(req) && nestsDeeperThan(req.body, max)) {
      next(
        new InfraDeliveryError({
          status: 400,
          entity: 'Request',
          reason: 'TOO_DEEP',
          message: `The request body nests deeper than ${max} levels`,
          metadata: { maxDepth: max },
        }),
      );
      return;
    }
    next();
  };
}
