import { mockServices } from '@backstage/backend-test-utils';
import express from 'express';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { createErrorHandler } from './errorHandler';
import { incrementalJsonBody } from './incrementalJsonBody';

const LIMIT = 64 * 1024;
const THRESHOLD = 1024;

/** The router's arrangement: the incremental parser, then express.json() for what it leaves. */
function appParsing(sliceBytes = 100) {
  const app = express();
  const parsedBy: string[] = [];
  app.use(
    incrementalJsonBody({ limit: LIMIT, threshold: THRESHOLD, sliceBytes }),
  );
  app.use((req, _res, next) => {
    parsedBy.push((req as { _body?: boolean })._body ? 'incremental' : 'json');
    next();
  });
  app.use(express.json({ limit: LIMIT }));
  app.post('/echo', (req, res) => {
    res.json({
      body: req.body,
      ownProto: Object.prototype.hasOwnProperty.call(req.body, '__proto__'),
      prototypeIsObject: Object.getPrototypeOf(req.body) === Object.prototype,
    });
  });
  app.use(createErrorHandler(mockServices.logger.mock()));
  return { app, parsedBy };
}

/** A JSON document of about `bytes` bytes, with multi-byte characters throughout. */
function document(bytes: number) {
  const items = [];
  for (let i = 0; JSON.stringify(items).length < bytes; i++) {
    items.push({
      address: `aws_s3_bucket.b${i}`,
      change: {
        actions: ['create'],
        after: { name: `bücket-${i} 🪣 ✓`, size: i * 1.5e-3 },
      },
      flags: [true, false, null, -(i + 1)],
    });
  }
  return { data: { items, quote: 'a "quoted" \\ \u0000 line\nbreak' } };
}

/**
 * POSTs `parts` one write each, without a Content-Length: Node sends the body chunked, as a
 * client streaming its body does.
 */
async function postChunked(
  app: express.Express,
  parts: string[],
): Promise<{ status: number; text: string }> {
  const server = http.createServer(app).listen(0);
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((resolve, reject) => {
      const req = http.request(
        {
          port,
          method: 'POST',
          path: '/echo',
          headers: { 'content-type': 'application/json' },
        },
        res => {
          let text = '';
          res.on('data', chunk => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        },
      );
      req.on('error', reject);
      parts.forEach(part => req.write(part));
      req.end();
    });
  } finally {
    server.close();
  }
}

describe('incrementalJsonBody', () => {
  it('parses a large body slice by slice into what JSON.parse gives, multi-byte characters split across slices included', async () => {
    const { app, parsedBy } = appParsing(7);
    const sent = document(20_000);
    const response = await request(app).post('/echo').send(sent);
    expect(response.status).toBe(200);
    expect(response.body.body).toEqual(sent);
    expect(parsedBy).toEqual(['incremental']);
  });

  it('leaves small bodies to express.json()', async () => {
    const { app, parsedBy } = appParsing();
    const response = await request(app)
      .post('/echo')
      .send({ data: { a: 1 } });
    expect(response.body.body).toEqual({ data: { a: 1 } });
    expect(parsedBy).toEqual(['json']);
  });

  it('takes a chunked body, which declares no length', async () => {
    const { app, parsedBy } = appParsing();
    const sent = document(5_000);
    const json = JSON.stringify(sent);
    const answer = await postChunked(app, [
      json.slice(0, 1000),
      json.slice(1000),
    ]);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).body).toEqual(sent);
    expect(parsedBy).toEqual(['incremental']);
  });

  it('lets the event loop turn while it parses', async () => {
    const { app } = appParsing(256);
    // A turn of the event loop's check phase that schedules the next: it runs once a turn.
    let turns = 0;
    let counting = true;
    const count = () => {
      turns += 1;
      if (counting) {
        setImmediate(count);
      }
    };
    setImmediate(count);
    try {
      const response = await request(app).post('/echo').send(document(60_000));
      expect(response.status).toBe(200);
    } finally {
      counting = false;
    }
    // ~240 slices, each followed by a turn; one JSON.parse would take a handful of turns.
    expect(turns).toBeGreaterThan(200);
  });

  it.each([
    ['a truncated document', (json: string) => json.slice(0, -3)],
    ['trailing garbage', (json: string) => `${json} x`],
    ['two documents', (json: string) => `${json}${json}`],
    [
      'a bad token in the middle',
      (json: string) => json.replace('true', 'tru'),
    ],
    ['a scalar at the top', () => `"${'x'.repeat(2_000)}"`],
  ])('answers %s with 400 MALFORMED_JSON', async (_name, corrupt) => {
    const { app } = appParsing();
    const response = await request(app)
      .post('/echo')
      .set('content-type', 'application/json')
      .send(corrupt(JSON.stringify(document(2_000))));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'InfraDelivery:Request:MALFORMED_JSON',
    });
  });

  it('answers a body over the limit with 413, declared or not', async () => {
    const { app } = appParsing();
    const declared = await request(app)
      .post('/echo')
      .send(document(LIMIT + 1_000));
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({
      code: 'InfraDelivery:Request:BODY_TOO_LARGE',
      metadata: { limit: LIMIT },
    });

    const chunked = await postChunked(app, [
      JSON.stringify(document(LIMIT + 1_000)),
    ]);
    expect(chunked.status).toBe(413);
  });

  it('keeps a "__proto__" key an own property, as JSON.parse does, without touching the prototype', async () => {
    const { app } = appParsing();
    const json = `{"__proto__":{"polluted":true},"pad":"${'x'.repeat(2_000)}"}`;
    const response = await request(app)
      .post('/echo')
      .set('content-type', 'application/json')
      .send(json);
    expect(response.status).toBe(200);
    expect(response.body.ownProto).toBe(true);
    expect(response.body.prototypeIsObject).toBe(true);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
