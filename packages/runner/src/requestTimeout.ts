import {
  formatDuration,
  InfraDeliveryClient,
} from '@infra-delivery/plugin-infra-delivery-common';

/** How long a request of a step (heartbeat, logs, report) may go unanswered. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** A request the service took but did not answer in time: its outcome is unknown. */
export class NoAnswer extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${formatDuration(timeoutMs)}`);
  }
}

/**
 * `client`, whose requests are given up after `timeoutMs` unless they bring their own signal
 * (a held claim does). A service that takes a request and never answers (a process frozen, a
 * connection lost without a word) left the request waiting for good: a heartbeat, a batch of
 * logs or a report, and with it the runner, which never claimed again.
 */
export function withRequestTimeout(
  client: InfraDeliveryClient,
  timeoutMs: number,
): InfraDeliveryClient {
  const timed = Object.create(client) as InfraDeliveryClient;
  timed.call = (async (operationId, request, options = {}) => {
    if (options.signal) {
      return client.call(operationId, request, options);
    }
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      return await client.call(operationId, request, { signal });
    } catch (error) {
      if (signal.aborted) throw new NoAnswer(timeoutMs);
      throw error;
    }
  }) as InfraDeliveryClient['call'];
  return timed;
}
