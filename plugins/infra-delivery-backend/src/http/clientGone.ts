import { Request } from 'express';

/**
 * Aborts when the client of `req` goes away before its answer is sent (the connection closed):
 * what a request held open, such as a runner's claim waiting for work, stops waiting on.
 */
export function clientGone(req: Request): AbortSignal {
  const controller = new AbortController();
  const res = req.res;
  res?.once('close', () => {
    if (!res.writableFinished) {
      controller.abort();
    }
  });
  return controller.signal;
}
