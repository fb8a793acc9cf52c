import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';
import {
  LOG_BATCH,
  LogLine,
  LogShipper,
  MAX_WAITING_LINES,
} from './LogShipper';

/** A service that takes lines, or fails as told: `outcomes` are used up one per request. */
function service(outcomes: (Error | undefined)[] = []) {
  const received: string[] = [];
  const requests: number[] = [];
  const send = async (lines: LogLine[]) => {
    requests.push(lines.length);
    const outcome = outcomes.shift();
    if (outcome) throw outcome;
    received.push(...lines.map(line => line.text));
  };
  return { received, requests, send };
}

const lines = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => `line ${from + i}`);

describe('LogShipper', () => {
  it('keeps the lines of a request that did not reach the service, and sends them first, in order', async () => {
    const { received, send } = service([new TypeError('fetch failed')]);
    const said: string[] = [];
    const shipper = new LogShipper(send, m => said.push(m));

    lines(3).forEach(text => shipper.add(text));
    await expect(shipper.flush()).resolves.toBeUndefined();
    expect(received).toEqual([]);
    expect(shipper.undelivered).toBe(3);

    lines(2, 4).forEach(text => shipper.add(text));
    await shipper.flush();
    expect(received).toEqual(lines(5));
    expect(shipper.undelivered).toBe(0);
    expect(said).toEqual([
      "Cannot send the step's logs (fetch failed); keeping them to send again",
      "Sending the step's logs again",
    ]);
  });

  it('never rejects, so that a failed send does not end the runner', async () => {
    const { send } = service([
      new TypeError('fetch failed'),
      new TypeError('fetch failed'),
    ]);
    const shipper = new LogShipper(send, () => {});
    // The batch size sends on its own, without anyone awaiting it.
    lines(LOG_BATCH).forEach(text => shipper.add(text));
    await expect(shipper.flush()).resolves.toBeUndefined();
  });

  it('drops the lines and sends no more once the service refuses them', async () => {
    const refusal = new InfraDeliveryApiError(409, {
      code: 'InfraDelivery:StepExecution:LEASE_LOST',
      message: 'The lease has expired',
    } as any);
    const { received, requests, send } = service([refusal]);
    const said: string[] = [];
    const shipper = new LogShipper(send, m => said.push(m));

    shipper.add('first');
    await shipper.flush();
    shipper.add('second');
    await shipper.flush();

    expect(received).toEqual([]);
    expect(requests).toEqual([1]);
    expect(said).toEqual([
      "The service refused the step's logs (409: The lease has expired); no more are sent",
    ]);
  });

  it("goes on sending a cancelled step's lines while the service takes them, and says at once that the step was cancelled", async () => {
    const received: string[] = [];
    const shipper = new LogShipper(
      async batch => {
        received.push(...batch.map(line => line.text));
        return { cancelRequested: true };
      },
      () => {},
    );
    const cancelRequested = jest.fn();
    shipper.onCancelRequested = cancelRequested;

    shipper.add('Interrupt received.');
    await shipper.flush();
    shipper.add('Stopping operation...');
    await shipper.flush();

    expect(received).toEqual(['Interrupt received.', 'Stopping operation...']);
    expect(cancelRequested).toHaveBeenCalledTimes(2);
    expect(shipper.undelivered).toBe(0);
  });

  it('sends at most 1,000 lines a request, and cuts a line longer than the service takes', async () => {
    const { received, requests, send } = service([
      new TypeError('fetch failed'),
    ]);
    const shipper = new LogShipper(send, () => {});
    shipper.add('x'.repeat(20_000));
    await shipper.flush();
    // While the service cannot be reached, lines gather beyond one request's worth.
    lines(2_300).forEach(text => shipper.add(text));
    await shipper.flush();

    expect(requests).toEqual([1, 1000, 1000, 301]);
    expect(received[0]).toHaveLength(16_384);
    expect(received[0].endsWith('…')).toBe(true);
    expect(received.slice(1)).toEqual(lines(2_300));
    expect(shipper.undelivered).toBe(0);
  });

  it('keeps at most its limit of lines while the service cannot be reached, and says how many it dropped', async () => {
    const { received, send } = service([new TypeError('fetch failed')]);
    const said: string[] = [];
    const shipper = new LogShipper(send, m => said.push(m));
    shipper.add('first');
    await shipper.flush();

    lines(MAX_WAITING_LINES).forEach(text => shipper.add(text));
    expect(shipper.undelivered).toBe(MAX_WAITING_LINES + 1);
    await shipper.flush();

    expect(received).toEqual(lines(MAX_WAITING_LINES));
    expect(said[1]).toBe(
      "Sending the step's logs again; 1 older lines were dropped meanwhile",
    );
  });
});
