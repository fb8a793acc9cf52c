import express, { Request, Response } from 'express';
import { limitJsonDepth } from './jsonDepth';

/** Reads a request's JSON body; a body-parser error (400, 413, 415) rejects. */
export type BodyReader = (req: Request, res: Response) => Promise<void>;

/**
 * The JSON body reader of ordinary operations: at most `limit` bytes, not compressed, nested
 * at most `MAX_JSON_DEPTH` levels. The operation binder calls it once the caller of an
 * authenticated operation is resolved, so a request without a valid credential is answered
 * 401 whatever its body holds, and no body is read for it. A body already parsed (a runner's,
 * by http/incrementalJsonBody.ts) is left as it is.
 */
export function jsonBodyReader(limit: number): BodyReader {
  const steps = [express.json({ limit, inflate: false }), limitJsonDepth()];
  return async (req, res) => {
    for (const step of steps) {
      await new Promise<void>((resolve, reject) =>
        step(req, res, error => (error ? reject(error) : resolve())),
      );
    }
  };
}
