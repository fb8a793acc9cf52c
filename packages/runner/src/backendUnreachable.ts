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
 * the network (`saysUnreachable`) from a command that failed while reaching its backend —
 * `init` whose last step was "Initializing the backend...", any other command that printed
 * nothing but warnings (pg's "Error: dial tcp …" comes with nothing around it) — or on reading
 * or writing the state. The same words from a provider (a cloud API that does not answer) come
 * after the backend answered and are not the backend's. A failed lock is the
 * `StateLockReader`'s.
 *
 * Decided once the output is read, from what came on stdout at all: the tools print their
 * diagnostics on stderr and the rest on stdout, and the two pipes are read in no set order (an
 * error may be read before the "Initializing the backend..." printed ahead of it).
 */
export class BackendErrorReader {
  private readonly init: boolean;
  /** The first `Error:` in words of the network. */
  private said?: string;
  /** init's last step ("Initializing provider plugins..."). */
  private step?: string;
  /** Whether stdout had more than warnings: the command got past its backend. */
  private printed = false;

  constructor(command: string) {
    this.init = command === 'init';
  }

  read(line: string, fromStdout = true): void {
    const headline = HEADLINE.exec(line)?.[1].trim();
    if (headline) {
      if (
        this.said === undefined &&
        !headline.startsWith(STATE_LOCK_HEADLINE) &&
        saysUnreachable(headline)
      ) {
        this.said = headline;
      }
      return;
    }
    if (!fromStdout) return;
    const text = line.trim();
    if (text.startsWith('Initializing ')) {
      this.step = text;
    } else if (!PREAMBLE.test(text)) {
      this.printed = true;
    }
  }

  /** The backend's words, when the output said that it could not be reached. */
  get unreachable(): string | undefined {
    const said = this.said;
    if (said === undefined || STATE_ACCESS.test(said)) return said;
    const reaching = this.init
      ? this.step === 'Initializing the backend...'
      : !this.printed;
    return reaching ? said : undefined;
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
  const afterwards = / apply$/.test(command)
    ? 'If the apply had begun changing resources, the state it could not save is in ' +
      'errored.tfstate in the working directory: push it (state push errored.tfstate) once ' +
      'the backend answers, before anything else runs on the stack.'
    : 'Nothing was changed.';
  return {
    code: BACKEND_UNREACHABLE_ERROR_CODE,
    message: `${command} could not reach the stack's state backend: ${said}`,
    description: `The backend that keeps this stack's state and its lock (the module's backend block: pg, http, S3, …) did not answer. Check that its server is up and that the host of the runner can reach it — the address and port in the backend's settings, DNS, firewall, proxy — then run again. ${afterwards}`,
    details: [{ title: "The backend's answer", render: 'list', items: [said] }],
    metadata: { command, exitCode },
  };
}
