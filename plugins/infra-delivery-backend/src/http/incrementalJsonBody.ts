import { JSONParser } from '@streamparser/json';
import { Request, RequestHandler } from 'express';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { bodyErrors } from './bodyErrors';
import { contentCoding, isDecodable, readInflatedBody } from './inflatedBody';
import {
  JsonNestingScanner,
  MAX_JSON_DEPTH,
  markDepthChecked,
} from './jsonDepth';

export interface IncrementalJsonBodyOptions {
  /** The largest body taken, in bytes (inflated); a larger one is answered 413. */
  limit: number;
  /**
   * Uncompressed bodies that declare at most this many bytes are left to `express.json()`:
   * one `JSON.parse` of them is shorter than the slices below.
   */
  threshold: number;
  /** Bytes parsed between two turns of the event loop. */
  sliceBytes?: number;
}

const DEFAULT_SLICE_BYTES = 16 * 1024;

/** body-parser marks a request whose body it has parsed; express.json() then passes it by. */
type MarkedRequest = Request & { _body?: boolean };

/**
 * The JSON body parser of the runner routes, mounted after the caller is authenticated.
 *
 * A step's report carries the whole plan (4.9 MB for 10,000 resources). `express.json()`
 * parses such a body with one `JSON.parse`, 20–70 ms during which the process answers nobody;
 * this one reads the body, then parses it a slice at a time and lets the event loop turn
 * between slices, measuring its nesting as it goes (400 past {@link MAX_JSON_DEPTH} levels).
 * It takes every compressed body (gzip, deflate or br) and inflates it under a ratio cap (see
 * inflatedBody.ts); no other route inflates. It answers as body-parser does: an object or
 * array only (strict), 413 over the limit, 400 for JSON that is malformed, and leaves small
 * uncompressed bodies, unknown codings and non-UTF-8 bodies to `express.json()`, which must
 * come after it.
 */
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
    if (contentCoding(req) === 'identity' && declared > options.limit) {
      next(bodyErrors.tooLarge(options.limit));
      return;
    }
    readInflatedBody(req, options.limit)
      .then(body => parseInSlices(body, sliceBytes))
      .then(parsed => {
        req.body = parsed;
        (req as MarkedRequest)._body = true;
        markDepthChecked(req);
        next();
      }, next);
  };
}

function takesBody(req: Request, threshold: number): boolean {
  if ((req as MarkedRequest)._body || !req.is('application/json')) {
    return false;
  }
  const coding = contentCoding(req);
  const charset = /charset=["']?([^;"']+)/i.exec(
    req.headers['content-type'] ?? '',
  )?.[1];
  if (!isDecodable(coding) || (charset && charset.toLowerCase() !== 'utf-8')) {
    return false;
  }
  if (coding !== 'identity') {
    return true;
  }
  const declared = req.headers['content-length'];
  // A chunked body declares no length: it may be of any size.
  return declared === undefined || Number(declared) > threshold;
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
  const nesting = new JsonNestingScanner();
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
    const slice = body.subarray(offset, offset + sliceBytes);
    nesting.write(slice);
    if (nesting.deepest > MAX_JSON_DEPTH) {
      throw bodyErrors.tooDeep(MAX_JSON_DEPTH);
    }
    parser.write(slice);
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
