import { Request } from 'express';
import { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { bodyErrors } from './bodyErrors';

/** The content codings a runner may send its body in. */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * A compressed body may inflate to at most this many times the bytes received so far (plus
 * {@link INFLATION_ALLOWANCE}). JSON plans compress 10 to 20 times; a "zip bomb" of repeated
 * bytes compresses a thousand times and more.
 */
export const MAX_INFLATION_RATIO = 100;
/** What any compressed body may inflate to, whatever its ratio. */
export const INFLATION_ALLOWANCE = 1024 * 1024;

/** The request's content coding: `identity`, one {@link DECODERS} knows, or another. */
export function contentCoding(req: Request): string {
  return (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
}

export function isDecodable(coding: string): boolean {
  return coding === 'identity' || coding in DECODERS;
}

/**
 * The whole body, inflated when it is compressed: up to `limit` bytes inflated, and up to
 * {@link MAX_INFLATION_RATIO} times the compressed bytes received. Over either, reading stops
 * with a 413; Node discards the rest once it has been answered, as body-parser leaves it.
 */
export function readInflatedBody(req: Request, limit: number): Promise<Buffer> {
  const coding = contentCoding(req);
  let received = 0;
  let decoder: Transform | undefined;
  if (coding !== 'identity') {
    decoder = DECODERS[coding]();
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    req.pipe(decoder);
  }
  const source: Readable = decoder ?? req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (error: Error) => {
      if (!settled) {
        settled = true;
        chunks.length = 0;
        if (decoder) {
          req.unpipe(decoder);
          decoder.destroy();
        }
        reject(error);
      }
    };
    source.on('data', (chunk: Buffer) => {
      if (settled) {
        return;
      }
      size += chunk.length;
      if (size > limit) {
        fail(bodyErrors.tooLarge(limit));
      } else if (
        decoder &&
        size > INFLATION_ALLOWANCE + MAX_INFLATION_RATIO * received
      ) {
        fail(bodyErrors.inflatesTooFar(MAX_INFLATION_RATIO));
      } else {
        chunks.push(chunk);
      }
    });
    source.on('end', () => {
      if (!settled) {
        settled = true;
        resolve(Buffer.concat(chunks, size));
      }
    });
    // A corrupt compressed body, or a connection that broke off.
    source.on('error', () => fail(bodyErrors.unreadable()));
    req.on('error', () => fail(bodyErrors.unreadable()));
    req.on('close', () => {
      if (!req.complete) {
        fail(bodyErrors.unreadable());
      }
    });
  });
}
