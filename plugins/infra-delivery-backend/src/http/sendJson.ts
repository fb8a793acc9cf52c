import { Response } from 'express';
import { answerJson } from '../lib/frozenAnswers';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Answers `body` as JSON with `status`: what express's `res.json` sends, without its strong
 * ETag. `res.json` hashed every answer with SHA-1 to make one (3.5 % of the backend's CPU under
 * the runs list in docs/benchmarks.md, optimization 20), parsed its own content type back to
 * set the charset and copied the text into a buffer to measure it. The plugin's answers change
 * with every run and step, so an ETag could only turn a repeated answer into a 304 after all
 * of its work was done; clients get the same bytes and headers otherwise. A HEAD request gets
 * the headers only (Node leaves the body out). A frozen answer (lib/frozenAnswers.ts) is serialized
 * once, and its bytes are sent again while the object lives (optimization 22); so are a list's
 * frozen items (optimization 38).
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const bytes = answerJson(body);
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.setHeader(
    'Content-Length',
    typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length,
  );
  res.end(bytes);
}
