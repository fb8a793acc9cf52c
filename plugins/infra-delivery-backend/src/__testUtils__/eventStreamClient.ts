import http, { IncomingHttpHeaders } from 'node:http';

/** One Server-Sent Event as it arrived. */
export interface ReceivedEvent {
  /** `message` unless the event named itself. */
  event: string;
  data: string;
  /** `performance.now()` when the event was complete. */
  receivedAt: number;
}

/**
 * Reads a response chunk by chunk as Server-Sent Events, the way a browser's EventSource
 * does, so that a test sees when each event actually arrives (supertest buffers the whole
 * response first).
 */
export class EventStreamClient {
  readonly events: ReceivedEvent[] = [];
  /** Comment lines (heartbeats), without the leading colon. */
  readonly comments: string[] = [];
  /** The raw text received; the whole body of a non-stream answer. */
  text = '';
  ended = false;

  private buffer = '';
  private consumed = 0;
  private readonly waiters: Array<() => void> = [];

  private constructor(
    private readonly request: http.ClientRequest,
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    readonly openedAt: number,
  ) {}

  static open(
    url: string,
    headers: Record<string, string> = {},
  ): Promise<EventStreamClient> {
    const openedAt = performance.now();
    return new Promise((resolve, reject) => {
      const request = http.get(url, { headers }, response => {
        const client = new EventStreamClient(
          request,
          response.statusCode ?? 0,
          response.headers,
          openedAt,
        );
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => client.receive(chunk));
        response.on('end', () => client.finish());
        response.on('close', () => client.finish());
        resolve(client);
      });
      request.on('error', reject);
    });
  }

  private receive(chunk: string) {
    this.text += chunk;
    this.buffer += chunk;
    let boundary = this.buffer.search(/\r?\n\r?\n/);
    while (boundary >= 0) {
      const block = this.buffer.slice(0, boundary);
      this.buffer = this.buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
      this.parseBlock(block);
      boundary = this.buffer.search(/\r?\n\r?\n/);
    }
    this.wake();
  }

  private parseBlock(block: string) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':')) {
        this.comments.push(line.slice(1).trim());
      } else if (line.startsWith('event:')) {
        event = line.slice('event:'.length).trim();
      } else if (line.startsWith('data:')) {
        data.push(line.slice('data:'.length).replace(/^ /, ''));
      }
    }
    if (data.length > 0) {
      this.events.push({
        event,
        data: data.join('\n'),
        receivedAt: performance.now(),
      });
    }
  }

  private finish() {
    this.ended = true;
    this.wake();
  }

  private wake() {
    for (const waiter of this.waiters.splice(0)) {
      waiter();
    }
  }

  private async until(condition: () => boolean, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new Error(
          `Timed out after ${timeoutMs} ms; received so far: ${this.text}`,
        );
      }
      await new Promise<void>(resolve => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next event not returned before; `undefined` once the stream has ended. */
  async next(timeoutMs = 5000): Promise<ReceivedEvent | undefined> {
    await this.until(
      () => this.events.length > this.consumed || this.ended,
      timeoutMs,
    );
    if (this.events.length > this.consumed) {
      return this.events[this.consumed++];
    }
    return undefined;
  }

  /** Waits for the end of the answer and returns every event not returned before. */
  async rest(timeoutMs = 5000): Promise<ReceivedEvent[]> {
    await this.until(() => this.ended, timeoutMs);
    const rest = this.events.slice(this.consumed);
    this.consumed = this.events.length;
    return rest;
  }

  async commentCount(atLeast: number, timeoutMs = 5000): Promise<void> {
    await this.until(() => this.comments.length >= atLeast, timeoutMs);
  }

  /** Goes away like a closed browser tab. */
  close() {
    this.request.destroy();
  }
}
