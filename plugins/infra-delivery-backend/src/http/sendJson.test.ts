import express from 'express';
import request from 'supertest';
import { freezeAnswer } from '../lib/frozenAnswers';
import { sendJson } from './sendJson';

const body = { name: 'Zürich — 東京', runs: [{ id: 'r1', status: 'QUEUED' }] };

function app(answer: unknown = body) {
  const server = express();
  server.all('/json', (_req, res) => sendJson(res, 201, answer));
  server.get('/express', (_req, res) => res.status(201).json(answer));
  return server;
}

describe('sendJson', () => {
  it('sends the bytes and headers express would, without an ETag', async () => {
    const ours = await request(app()).get('/json');
    const theirs = await request(app()).get('/express');
    expect(ours.status).toBe(201);
    expect(ours.text).toBe(theirs.text);
    expect(ours.body).toEqual(body);
    expect(ours.headers['content-type']).toBe(theirs.headers['content-type']);
    // Counted in bytes, not characters: the name has multi-byte characters.
    expect(ours.headers['content-length']).toBe(
      String(Buffer.byteLength(JSON.stringify(body))),
    );
    expect(ours.headers['content-length']).toBe(
      theirs.headers['content-length'],
    );
    expect(theirs.headers.etag).toBeDefined();
    expect(ours.headers.etag).toBeUndefined();
  });

  it('answers a HEAD request with the headers only', async () => {
    const response = await request(app()).head('/json');
    expect(response.status).toBe(201);
    expect(response.headers['content-length']).toBe(
      String(Buffer.byteLength(JSON.stringify(body))),
    );
    expect(response.text).toBeUndefined();
  });

  it('sends a list of frozen items from their kept bytes as express would', async () => {
    const list = {
      data: [
        freezeAnswer({ id: 'r2', name: 'Zürich — 東京', error: undefined }),
        { id: 'r1', queueState: { reason: 'Queued for a runner' } },
      ],
      meta: { limit: 2, totalCount: 2 },
    };
    for (let i = 0; i < 2; i++) {
      const ours = await request(app(list)).get('/json');
      const theirs = await request(app(list)).get('/express');
      expect(ours.text).toBe(theirs.text);
      expect(ours.headers['content-length']).toBe(
        theirs.headers['content-length'],
      );
    }
  });
});
