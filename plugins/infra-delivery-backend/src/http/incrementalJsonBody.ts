import { JSONParser } from '@streamparser/json';
import { Request, RequestHandler } from 'express';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { bodyErrors } from './bodyErrors';

export interface IncrementalJsonBodyOptions {
  /** The largest body taken, in bytes; a larger one is answered 413. */
  limit: number;
  /**
   * Bodies that declare at most this many bytes are left to `express.json()`: one
   * `JSON.parse` of them is shorter than the slices below.
   */
  threshold: number;
  /** Bytes parsed between two turns of the event loop. */
  sliceBytes?: number;
}

const DEFAULT_SLICE_BYTES = 16 * 1024;

/** body-parser marks a request whose body it has parsed; express.json() then passes it by. */
type MarkedRequest = Request & { _body?: boolean };

/**
 * A JSON body parser for the bodies that are megabytes long (a runner's report carries the
 * whole plan: 4.9 MB for 10,000 resources). `express.json()` parses such a body with one
 * `JSON.parse`, 20–70 ms during which the process answers nobody; this one reads the body,
 * then parses it a slice at a time and lets the event loop turn between slices. It answers
 * as body-parser does: an object or array only (strict), 413 over the limit, 400 for JSON that
 * is malformed, and leaves compressed or non-UTF-8 bodies and small ones to `express.json()`,
 * which must come after it.
 */
const slicedBodies = new WeakSet<Request>();

/** Whether the request's body was parsed here, a slice at a time (a large runner report). */
export function wasParsedInSlices(req: Request): boolean {
  return slicedBodies.has(req);
}

export function incrementalJsonBody(
  options: IncrementalJsonBodyOptions,
): RequestHandler {
  const sliceBytes = options.sliceBytes ?? DEFAULT_SLICE_BYTES;
  return (req, _res, next) => {
    if (!takesBody(req, options.threshold)) {
      next();
      return;
    }
    const declared = Number(req.headers['content-length']);
    if (declared > options.limit) {
      next(bodyErrors.tooLarge(options.limit));
      return;
    }
    readBody(req, options.limit)
      .then(body => parseInSlices(body, sliceBytes))
      .then(parsed => {
        req.body = parsed;
        (req as MarkedRequest)._body = true;
        slicedBodies.add(req);
        next();
      }, next);
  };
}

function takesBody(req: Request, threshold: number): boolean {
  if ((req as MarkedRequest)._body || !req.is('application/json')) {
    return false;
  }
  const encoding = (
    req.headers['content-encoding'] ?? 'identity'
  ).toLowerCase();
  const charset = /charset=["']?([^;"']+)/i.exec(
    req.headers['content-type'] ?? '',
  )?.[1];
  if (
    encoding !== 'identity' ||
    (charset && charset.toLowerCase() !== 'utf-8')
  ) {
    return false;
  }
  const declared = req.headers['content-length'];
  // A chunked body declares no length: it may be of any size.
  return declared === undefined || Number(declared) > threshold;
}

/**
 * The whole body, up to `limit` bytes. Over it, reading stops and Node discards the rest once
 * the 413 has been answered, as body-parser leaves it.
 */
function readBody(req: Request, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > limit) {
        return;
      }
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        reject(bodyErrors.tooLarge(limit));
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => resolve(Buffer.concat(chunks, size)));
    req.on('error', () => reject(bodyErrors.unreadable()));
    req.on('close', () => {
      if (!req.complete) {
        reject(bodyErrors.unreadable());
      }
    });
  });
}

async function parseInSlices(
  body: Buffer,
  sliceBytes: number,
): Promise<unknown> {
  if (body.length === 0) {
    // body-parser's answer to an empty body.
    return {};
  }
  const parser = new JSONParser({ paths: ['$'], keepStack: false });
  let root: unknown = undefined;
  let failed = false;
  parser.onValue = ({ value, stack }) => {
    if (stack.length === 0) {
      root = value;
    }
  };
  parser.onError = () => {
    failed = true;
  };
  for (let offset = 0; offset < body.length && !failed; offset += sliceBytes) {
    parser.write(body.subarray(offset, offset + sliceBytes));
    await nextTurn();
  }
  if (!failed && !parser.isEnded) {
    parser.end();
  }
  if (failed || typeof root !== 'object' || root === null) {
    throw bodyErrors.malformedJson();
  }
  return root;
}
