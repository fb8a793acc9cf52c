/**
 * Work drained in the background: `soon()` starts a round of `drain` unless one runs, and a
 * call while one runs makes it go round once more (what was added meanwhile may have been
 * missed). A round that throws is reported to `onError`; the next `soon()` starts again.
 */
export class BackgroundDrain {
  private running?: Promise<void>;
  private again = false;

  constructor(
    private readonly drain: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  soon(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.drain();
        } catch (error) {
          this.onError(error);
        }
      } while (this.again);
      this.running = undefined;
    })();
  }

  /** Resolves once no round runs (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) {
      await this.running;
    }
  }
}
