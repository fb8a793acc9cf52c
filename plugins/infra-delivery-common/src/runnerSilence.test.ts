import {
  freeRunnerSilenceMs,
  idleRunnerSilenceMs,
  runnerSilentAfterMs,
} from './runnerSilence';

const now = Date.parse('2026-11-28T12:00:00.000Z');
const seenAgo = (ms: number) => new Date(now - ms).toISOString();
const idle = {
  status: 'ONLINE' as const,
  lastSeenAt: seenAgo(0),
  pollIntervalMs: 2_000,
};

describe('runnerSilentAfterMs', () => {
  it('waits five polls, at least ten seconds, after the last sighting the service recorded', () => {
    // Sightings are recorded at most every ten seconds.
    expect(runnerSilentAfterMs(2_000)).toBe(20_000);
    expect(runnerSilentAfterMs(100)).toBe(20_000);
    expect(runnerSilentAfterMs(30_000)).toBe(160_000);
  });

  it('assumes the reference runner’s two seconds when a runner did not say', () => {
    expect(runnerSilentAfterMs(undefined)).toBe(20_000);
  });
});

describe('freeRunnerSilenceMs after the service came back', () => {
  it('counts from the return of the service, which could not hear the runner while down', () => {
    // Last seen 25 s ago, before a restart; the service answers again since 3 s.
    const restarted = {
      lastSeenAt: seenAgo(25_000),
      pollIntervalMs: 2_000,
      serviceReachableSince: seenAgo(3_000),
    };
    expect(freeRunnerSilenceMs(restarted, now)).toBeUndefined();
    expect(freeRunnerSilenceMs(restarted, now + 17_000)).toBe(20_000);
    // A claim that dropped before the outage as well.
    expect(
      freeRunnerSilenceMs(
        { ...restarted, claimDroppedAt: seenAgo(10_000) },
        now,
      ),
    ).toBeUndefined();
    expect(
      freeRunnerSilenceMs(
        { ...restarted, claimDroppedAt: seenAgo(10_000) },
        now + 2_000,
      ),
    ).toBe(5_000);
    // On the Runners card likewise.
    expect(idleRunnerSilenceMs({ ...idle, ...restarted }, now)).toBeUndefined();
  });
});

describe('idleRunnerSilenceMs', () => {
  it('is undefined while a free runner asks for work', () => {
    // Ten seconds since the last recorded sighting, and a poll since: the runner asks.
    expect(
      idleRunnerSilenceMs({ ...idle, lastSeenAt: seenAgo(12_500) }, now),
    ).toBeUndefined();
    expect(
      idleRunnerSilenceMs({ ...idle, lastSeenAt: seenAgo(19_999) }, now),
    ).toBeUndefined();
  });

  it('says how long a free runner has not asked for work once it is past its polls', () => {
    expect(
      idleRunnerSilenceMs({ ...idle, lastSeenAt: seenAgo(27_000) }, now),
    ).toBe(27_000);
  });

  it('says it five seconds after its held claim dropped, as a run waiting for it does', () => {
    // Seen 8 s ago, within the twenty seconds of its sightings: the drop tells.
    const dropped = {
      ...idle,
      lastSeenAt: seenAgo(8_000),
      claimDroppedAt: seenAgo(5_000),
    };
    expect(idleRunnerSilenceMs(dropped, now)).toBe(5_000);
    expect(
      idleRunnerSilenceMs({ ...dropped, claimDroppedAt: seenAgo(4_999) }, now),
    ).toBeUndefined();
    // Two of its polls where those are longer.
    expect(
      idleRunnerSilenceMs({ ...dropped, pollIntervalMs: 4_000 }, now),
    ).toBeUndefined();
    // The same rule the service applies to the free runners of a waiting run.
    expect(
      freeRunnerSilenceMs(
        { lastSeenAt: seenAgo(8_000), claimDroppedAt: seenAgo(6_000) },
        now,
      ),
    ).toBe(6_000);
  });

  it('scales with the runner’s own poll interval', () => {
    const slow = {
      ...idle,
      pollIntervalMs: 10_000,
      lastSeenAt: seenAgo(50_000),
    };
    expect(idleRunnerSilenceMs(slow, now)).toBeUndefined();
    expect(
      idleRunnerSilenceMs({ ...slow, lastSeenAt: seenAgo(60_000) }, now),
    ).toBe(60_000);
  });

  it('leaves a runner working on a step to its lease, and an OFFLINE one to its status', () => {
    const long = seenAgo(45_000);
    expect(
      idleRunnerSilenceMs(
        { ...idle, lastSeenAt: long, currentStepExecutionId: 'step-1' },
        now,
      ),
    ).toBeUndefined();
    expect(
      idleRunnerSilenceMs(
        { ...idle, lastSeenAt: long, status: 'OFFLINE' },
        now,
      ),
    ).toBeUndefined();
  });
});
