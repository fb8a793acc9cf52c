import { isRefusal } from './serviceAnswers';

export interface LogLine {
  timestamp: string;
  text: string;
}

/** Lines are sent once this many wait. */
export const LOG_BATCH = 200;
/** The most lines one request may carry (the service's limit). */
const MAX_LINES_PER_REQUEST = 1000;
/** The longest line the service takes; a longer one is cut, marked with an ellipsis. */
const MAX_LINE_LENGTH = 16_384;
/** While the service cannot be reached, at most this many lines wait; older ones are dropped. */
export const MAX_WAITING_LINES = 20_000;

/**
 * A step's log lines on their way to the service, in order, one request at a time. A request
 * that does not reach the service (the portal restarting) keeps its lines for the next flush,
 * so no line is lost and none goes out of order; a refusal (409: the lease is gone; 401 or
 * 403: the key is) drops them, since the service will take none of this step's lines. Sending
 * never throws: the step's command goes on, and its result is reported regardless.
 */
export class LogShipper {
  private waiting: LogLine[] = [];
  private sending: Promise<void> = Promise.resolve();
  private refused = false;
  private unreachable = false;
  private dropped = 0;
  /** Told when the service refuses a batch (4xx): e.g. the step was cancelled (409). */
  onRefused?: (error: Error) => void;
  /**
   * Told when the service took a batch of a cancelled step (it keeps what the tool prints while
   * it stops, for a short while): the command is to stop now. The lines go on being sent.
   */
  onCancelRequested?: () => void;

  constructor(
    private readonly send: (
      lines: LogLine[],
    ) => Promise<{ cancelRequested?: boolean } | void>,
    private readonly log: (message: string) => void,
    private readonly options: {
      /**
       * Where the step's lines go once the service refuses them (the runner's own log), so
       * that what the tool said while it was stopped is not lost.
       */
      keep?: (line: LogLine) => void;
    } = {},
  ) {}

  add(text: string) {
    const line = {
      timestamp: new Date().toISOString(),
      text:
        text.length > MAX_LINE_LENGTH
          ? `${text.slice(0, MAX_LINE_LENGTH - 1)}…`
          : text,
    };
    if (this.refused) {
      this.options.keep?.(line);
      return;
    }
    this.waiting.push(line);
    if (this.waiting.length > MAX_WAITING_LINES) {
      const excess = this.waiting.length - MAX_WAITING_LINES;
      this.waiting.splice(0, excess);
      this.dropped += excess;
    }
    if (this.waiting.length >= LOG_BATCH && !this.unreachable) {
      void this.flush();
    }
  }

  /** Sends what waits; resolves once it is sent, or kept for the next flush. */
  flush(): Promise<void> {
    this.sending = this.sending.then(() => this.sendWaiting());
    return this.sending;
  }

  /** Lines that wait to be sent (none once the service refused them). */
  get waitingLines(): number {
    return this.waiting.length;
  }

  /** Lines not sent yet, and lines dropped: what a flush at the end could not deliver. */
  get undelivered(): number {
    return this.waiting.length + this.dropped;
  }

  private async sendWaiting(): Promise<void> {
    while (this.waiting.length > 0 && !this.refused) {
      const batch = this.waiting.slice(0, MAX_LINES_PER_REQUEST);
      let answer;
      try {
        answer = await this.send(batch);
      } catch (error) {
        this.failed(error as Error);
        return;
      }
      this.waiting.splice(0, batch.length);
      if (answer?.cancelRequested) {
        this.onCancelRequested?.();
      }
      if (this.unreachable) {
        this.unreachable = false;
        this.log(
          this.dropped > 0
            ? `Sending the step's logs again; ${this.dropped} older lines were dropped meanwhile`
            : "Sending the step's logs again",
        );
        this.dropped = 0;
      }
    }
  }

  private failed(error: Error) {
    if (isRefusal(error)) {
      this.refused = true;
      this.log(
        `The service refused the step's logs (${error.status}: ${
          error.message
        }); no more are sent${
          this.options.keep ? ', the rest is written here' : ''
        }`,
      );
      const { keep } = this.options;
      if (keep) this.waiting.forEach(line => keep(line));
      this.waiting = [];
      this.onRefused?.(error);
      return;
    }
    if (!this.unreachable) {
      this.unreachable = true;
      this.log(
        `Cannot send the step's logs (${error.message}); keeping them to send again`,
      );
    }
  }
}
