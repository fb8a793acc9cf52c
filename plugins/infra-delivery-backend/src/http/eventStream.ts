import { ErrorBody } from '@infra-delivery/plugin-infra-delivery-common';
import { Response } from 'express';

/** Below the 60 s after which nginx and load balancers close an idle connection. */
export const HEARTBEAT_INTERVAL_MS = 15_000;

/**
 * Events produced while they are sent. `signal` aborts when the client goes away; whatever the
 * producer is waiting for upstream should stop then.
 */
export type EventStream<T> = (signal: AbortSignal) => AsyncIterable<T>;

export interface EventStreamOptions {
  /** The ErrorBody of a failure after the stream started, sent as `event: error`. */
  errorBody: (error: unknown) => ErrorBody;
  heartbeatIntervalMs?: number;
}

/** What Backstage's compression middleware adds to a response. */
type FlushableResponse = Response & { flush?: () => void };

function waitForDrain(res: Response, signal: AbortSignal): Promise<void> {
  return new Promise(resolve => {
    const done = () => {
      res.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    res.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Sends `events` as Server-Sent Events, each as soon as it is produced.
 *
 * Backstage's root router compresses every response, and gzip would hold events back until its
 * buffer fills: `Cache-Control: no-transform` makes the compression middleware leave the
 * response alone, and each write is flushed in case a compressor sits in between anyway.
 * `X-Accel-Buffering: no` does the same for nginx; comment lines every 15 s keep proxies from
 * closing a quiet stream. The stream stops pulling events when the client disconnects (the
 * response's `close`; a GET request's own `close` fires as soon as it has been read).
 */
export async function sendEventStream<T>(
  res: Response,
  events: EventStream<T>,
  options: EventStreamOptions,
): Promise<void> {
  const abort = new AbortController();
  const onClose = () => abort.abort();
  res.on('close', onClose);

  const out = res as FlushableResponse;
  const write = (frame: string): boolean => {
    const accepted = out.write(frame);
    out.flush?.();
    return accepted;
  };

  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();

  const heartbeat = setInterval(() => {
    if (!abort.signal.aborted && !res.writableNeedDrain) {
      write(': heartbeat\n\n');
    }
  }, options.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS);
  try {
    for await (const event of events(abort.signal)) {
      if (abort.signal.aborted) {
        break;
      }
      if (!write(`data: ${JSON.stringify(event)}\n\n`)) {
        await waitForDrain(res, abort.signal);
      }
    }
  } catch (error) {
    if (!abort.signal.aborted) {
      write(
        `event: error\ndata: ${JSON.stringify(options.errorBody(error))}\n\n`,
      );
    }
  } finally {
    clearInterval(heartbeat);
    res.off('close', onClose);
    res.end();
  }
}
