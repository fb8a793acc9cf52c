import http from 'node:http';
import { AddressInfo } from 'node:net';
import express from 'express';
import { InfraDeliveryError } from '../errors';
import { EventStreamClient } from '../__testUtils__/eventStreamClient';
import { EventStream, sendEventStream } from './eventStream';

/** A producer whose events the test hands out one at a time. */
class ControlledProducer {
  readonly pending: Array<(value: { n: number } | Error) => void> = [];
  signal?: AbortSignal;
  finished = false;

  readonly stream: EventStream<{ n: number }> = signal => {
    this.signal = signal;
    return this.events(signal);
  };

  private next(signal: AbortSignal): Promise<{ n: number } | Error> {
    return new Promise((resolve, reject) => {
      this.pending.push(resolve);
      signal.addEventListener('abort', () => reject(signal.reason), {
        once: true,
      });
    });
  }

  private async *events(signal: AbortSignal) {
    try {
      for (;;) {
        const value = await this.next(signal);
        if (value instanceof Error) {
          throw value;
        }
        yield value;
        if (value.n < 0) {
          return;
        }
      }
    } finally {
      this.finished = true;
    }
  }

  async emit(value: { n: number } | Error) {
    while (this.pending.length === 0) {
      await new Promise(resolve => setTimeout(resolve, 5));
    }
    this.pending.shift()!(value);
  }
}

async function serve(producer: ControlledProducer, heartbeatIntervalMs = 50) {
  const app = express();
  app.get('/events', (_req, res) => {
    sendEventStream(res, producer.stream, {
      heartbeatIntervalMs,
      errorBody: error =>
        error instanceof InfraDeliveryError
          ? error.toBody()
          : { code: 'InfraDelivery:Internal:UNEXPECTED', message: 'x' },
    });
  });
  const server = http.createServer(app);
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/events`,
    close: () =>
      new Promise(resolve => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

describe('sendEventStream', () => {
  it('sends each event as it is produced, with the stream headers, and ends', async () => {
    const producer = new ControlledProducer();
    const server = await serve(producer, 60_000);
    const client = await EventStreamClient.open(server.url);
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe(
      'text/event-stream; charset=utf-8',
    );
    expect(client.headers['cache-control']).toBe('no-cache, no-transform');
    expect(client.headers['x-accel-buffering']).toBe('no');
    expect(client.headers.connection).toBe('keep-alive');

    await producer.emit({ n: 1 });
    expect(await client.next()).toMatchObject({
      event: 'message',
      data: '{"n":1}',
    });
    await producer.emit({ n: -1 });
    expect(await client.next()).toMatchObject({ data: '{"n":-1}' });
    expect(await client.next()).toBeUndefined();
    expect(producer.finished).toBe(true);
    await server.close();
  });

  it('sends heartbeat comments while the producer is quiet', async () => {
    const producer = new ControlledProducer();
    const server = await serve(producer, 40);
    const client = await EventStreamClient.open(server.url);
    await client.commentCount(3, 2000);
    expect(client.comments.slice(0, 3)).toEqual([
      'heartbeat',
      'heartbeat',
      'heartbeat',
    ]);
    expect(client.events).toEqual([]);
    client.close();
    await server.close();
  });

  it('ends with an error event carrying the ErrorBody when the producer fails', async () => {
    const producer = new ControlledProducer();
    const server = await serve(producer, 60_000);
    const client = await EventStreamClient.open(server.url);
    await producer.emit({ n: 1 });
    await producer.emit(
      new InfraDeliveryError({
        status: 502,
        entity: 'GitSelfHostedServer',
        reason: 'UPSTREAM_ERROR',
        message: 'The server failed',
      }),
    );
    const events = await client.rest();
    expect(events.map(e => e.event)).toEqual(['message', 'error']);
    expect(JSON.parse(events[1].data)).toEqual({
      code: 'InfraDelivery:GitSelfHostedServer:UPSTREAM_ERROR',
      message: 'The server failed',
    });
    await server.close();
  });

  it('aborts the producer when the client goes away', async () => {
    const producer = new ControlledProducer();
    const server = await serve(producer, 60_000);
    const client = await EventStreamClient.open(server.url);
    await producer.emit({ n: 1 });
    await client.next();
    client.close();
    for (let i = 0; i < 100 && !producer.finished; i++) {
      await new Promise(resolve => setTimeout(resolve, 10));
    }
    expect(producer.signal?.aborted).toBe(true);
    expect(producer.finished).toBe(true);
    await server.close();
  });
});
