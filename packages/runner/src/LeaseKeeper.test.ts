import {
  InfraDeliveryApiError,
  InfraDeliveryClient,
} from '@infra-delivery/plugin-infra-delivery-common';
import { HEARTBEAT_INTERVAL_MS, LeaseKeeper } from './LeaseKeeper';

/** A client whose heartbeats wait until the test answers them, one by one. */
function heldHeartbeats() {
  const answers: {
    resolve: (v: unknown) => void;
    reject: (e: Error) => void;
  }[] = [];
  const client = {
    call: (operation: string) => {
      expect(operation).toBe('heartbeatStepExecution');
      return new Promise((resolve, reject) =>
        answers.push({ resolve, reject }),
      );
    },
  } as unknown as InfraDeliveryClient;
  return { client, answers };
}

const goneLease = () =>
  new InfraDeliveryApiError(409, {
    code: 'InfraDelivery:Runner:LEASE_LOST',
    message: 'This lease is not the step’s current lease',
  });

describe('LeaseKeeper', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function keeper(client: InfraDeliveryClient, leaseMs = 3_000) {
    const said: string[] = [];
    const stopCommand = jest.fn();
    const lease = new LeaseKeeper({
      client,
      stepId: 'step-1',
      runId: 'run-1',
      leaseToken: 'lease-token-0123456789',
      leaseExpiresAt: new Date(Date.now() + leaseMs).toISOString(),
      stopCommand,
      log: m => said.push(m),
    });
    lease.start();
    return { lease, said, stopCommand };
  }

  /** A client that renews a lease of `leaseMs` at each heartbeat, keeping what each one sent. */
  function renewingHeartbeats(leaseMs: number) {
    const bodies: { data: { heartbeatIntervalMs?: number } }[] = [];
    const client = {
      call: async (
        _operation: string,
        request: { body: { data: { heartbeatIntervalMs?: number } } },
      ) => {
        bodies.push(request.body);
        return {
          data: {
            leaseExpiresAt: new Date(Date.now() + leaseMs).toISOString(),
            cancelRequested: false,
          },
        };
      },
    } as unknown as InfraDeliveryClient;
    return { client, bodies };
  }

  it('renews a long lease every five seconds and says so with each heartbeat', async () => {
    expect(HEARTBEAT_INTERVAL_MS).toBe(5_000);
    const { client, bodies } = renewingHeartbeats(60_000);
    const { lease } = keeper(client, 60_000);

    await jest.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS - 1);
    expect(bodies).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(bodies).toEqual([
      {
        data: {
          leaseToken: 'lease-token-0123456789',
          heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS,
        },
      },
    ]);
    await jest.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS);
    expect(bodies).toHaveLength(2);
    lease.stop();
  });

  it('renews a short lease every third of it, and says that interval', async () => {
    const { client, bodies } = renewingHeartbeats(3_000);
    const { lease } = keeper(client);

    await jest.advanceTimersByTimeAsync(1_000);
    expect(bodies.map(b => b.data.heartbeatIntervalMs)).toEqual([1_000]);
    lease.stop();
  });

  it('stops the command when the lease went to another attempt', async () => {
    const { client, answers } = heldHeartbeats();
    const { lease, said, stopCommand } = keeper(client);

    jest.advanceTimersByTime(1_000);
    answers[0].reject(goneLease());
    await jest.advanceTimersByTimeAsync(0);

    expect(lease.lost).toBe(true);
    expect(stopCommand).toHaveBeenCalledTimes(1);
    expect(said[0]).toBe(
      'The lease on step step-1 is gone (This lease is not the step’s current lease); stopping',
    );
    lease.stop();
  });

  it('stops the command once, as cancelled, when the answer to a batch of logs says the run was cancelled', async () => {
    const { client } = heldHeartbeats();
    const { lease, said, stopCommand } = keeper(client);

    lease.cancelRequested();
    lease.cancelRequested();

    expect(lease.lost).toBe(true);
    expect(lease.cancelled).toBe(true);
    expect(stopCommand).toHaveBeenCalledTimes(1);
    expect(said).toEqual(['Run run-1 was cancelled; stopping']);
    lease.stop();
  });

  it('does not count a lost lease as a cancel', async () => {
    const { client, answers } = heldHeartbeats();
    const { lease } = keeper(client);

    jest.advanceTimersByTime(1_000);
    answers[0].reject(goneLease());
    await jest.advanceTimersByTimeAsync(0);
    lease.cancelRequested();

    expect(lease.lost).toBe(true);
    expect(lease.cancelled).toBe(false);
    lease.stop();
  });

  it('leaves a refusal to the report once the command has ended', async () => {
    const { client, answers } = heldHeartbeats();
    const { lease, said, stopCommand } = keeper(client);

    // A heartbeat leaves as the step's report goes out; the service takes the report first.
    jest.advanceTimersByTime(1_000);
    lease.commandEnded();
    answers[0].reject(goneLease());
    await jest.advanceTimersByTimeAsync(0);

    expect(said).toEqual([]);
    expect(stopCommand).not.toHaveBeenCalled();
    expect(lease.lost).toBe(false);
    // While the report is tried again, the heartbeats keep the lease.
    jest.advanceTimersByTime(1_000);
    expect(answers).toHaveLength(2);
    lease.stop();
  });

  it('says nothing of a heartbeat answered after the step was reported, and sends none after', async () => {
    const { client, answers } = heldHeartbeats();
    const { lease, said } = keeper(client);

    jest.advanceTimersByTime(1_000);
    lease.commandEnded();
    lease.stop();
    answers[0].reject(new TypeError('fetch failed'));
    await jest.advanceTimersByTimeAsync(0);

    expect(said).toEqual([]);
    jest.advanceTimersByTime(5_000);
    expect(answers).toHaveLength(1);
  });
});
