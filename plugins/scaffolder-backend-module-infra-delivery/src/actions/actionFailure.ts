/**
 * An action's failure as the person who ran the template reads it. Backstage writes a failed
 * step's `error.stack` into the task log: an ordinary Error put the action's source path and
 * Node's internals under "Run … ended FAILED: …". This error's stack is its message alone.
 */
export class ActionFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActionFailure';
    this.stack = `Error: ${message}`;
  }
}
