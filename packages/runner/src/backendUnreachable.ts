import { ErrorBody } from '@infra-delivery/plugin-infra-delivery-common';
import { STATE_LOCK_HEADLINE } from './stateLock';

export const BACKEND_UNREACHABLE_ERROR_CODE =
  'InfraDelivery:Runner:BACKEND_UNREACHABLE';

/**
 * A backend that could not be reached, in the words of Terraform 1.11 and its backends
 * (`__fixtures__/backend-errors`): no connection (pg on a closed port: "dial tcp
 * 127.0.0.1:5999: connect: connection refused"), no such host, no answer in time, or an http
 * server answering 5xx until the retries gave up ("GET http://… giving up after 3 attempt(s)").
 */
const UNREACHABLE =
  /dial tcp|connection refused|no such host|i\/o timeout|network is unreachable|no route to host|connection reset by peer|TLS handshake timeout|context deadline exceeded|giving up after \d+ attempt|Unexpected HTTP response code 5\d\d|HTTP remote state internal server error/i;

/** Reading or writing the state, whatever the command (an http backend's GET at init). */
const STATE_ACCESS =
  /^(Error refreshing state: |Error loading state: )?(Failed to (get|load|save|persist|lock|unlock) state|Failed to get existing workspaces|Failed to lock|Failed to unlock)/;

/** Whether the backend's words say that it could not be reached. */
export function saysUnreachable(said: string | undefined): boolean {
  return said !== undefined && UNREACHABLE.test(said);
}

/** A diagnostic's headline, boxed or not. */
const HEADLINE = /^[\s│|]*Error: (.+)$/;

/** What a command prints before it reaches the backend: warnings in their box, blank lines. */
const PREAMBLE =
  /^([╷│╵|].*|There are some problems with the CLI configuration:|Acquiring state lock\. This may take a few moments\.\.\.)?$/;

/**
 * Reads a command's output for a backend that could not be reached: an `Error:` in words of
 * the network (`saysUnreachable`) printed while the command was reaching its backend — `init`
 * between "Initializing the backend..." and the next step of the init, any other command before
 * it printed anything but warnings (pg's "Error: dial tcp …" comes with nothing around it) — or
 * on reading or writing the state. The same words from a provider (a cloud API that does not
 * answer) come later and are not the backend's. A failed lock is the `StateLockReader`'s.
 */
export class BackendErrorReader {
  private readonly init: boolean;
  private reaching: boolean;
  private said?: string;

  constructor(command: string) {
    this.init = command === 'init';
    this.reaching = !this.init;
  }

  read(line: string): void {
    if (this.said !== undefined) return;
    const text = line.trim();
    const headline = HEADLINE.exec(line)?.[1].trim();
    if (headline) {
      if (
        !headline.startsWith(STATE_LOCK_HEADLINE) &&
        (this.reaching || STATE_ACCESS.test(headline)) &&
        saysUnreachable(headline)
      ) {
        this.said = headline;
      }
      return;
    }
    if (this.init) {
      if (text.startsWith('Initializing ')) {
        this.reaching = text === 'Initializing the backend...';
      }
    } else if (!PREAMBLE.test(text)) {
      this.reaching = false;
    }
  }

  /** The backend's words, once the output said that it could not be reached. */
  get unreachable(): string | undefined {
    return this.said;
  }
}

/**
 * The error of a step whose command could not reach the stack's backend (where its state and
 * lock are kept), saying so with the backend's own words, not "exited with 1".
 */
export function backendUnreachableError(
  command: string,
  exitCode: number,
  said: string,
): ErrorBody {
  const applying = / apply$/.test(command);
  return {
    code: BACKEND_UNREACHABLE_ERROR_CODE,
    message: `${command} could not reach the stack's state backend: ${said}`,
    description:
      "The backend that keeps this stack's state and its lock (the module's backend block: " +
      'pg, http, S3, …) did not answer. Check that its server is up and that the host of the ' +
      "runner can reach it — the address and port in the backend's settings, DNS, firewall, " +
      'proxy — then run again.' +
      (applying
        ? ' If the apply had begun changing resources, the state it could not save is in ' +
          'errored.tfstate in the working directory: push it (state push errored.tfstate) ' +
          'once the backend answers, before anything else runs on the stack.'
        : ' Nothing was changed.'),
    details: [
      { title: "The backend's answer", render: 'list', items: [said] },
    ],
    metadata: { command, exitCode },
  };
}
