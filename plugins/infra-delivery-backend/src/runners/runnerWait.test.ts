import { OnlineRunner, OnlineRunners } from '../database/RunnerStore';
import { NO_RUNNER_REASON, runnersFor, waitForRunner } from './runnerWait';

const queuedAt = '2026-11-28T12:00:00.000Z';
const at = (seconds: number) => Date.parse(queuedAt) + seconds * 1000;
const seenAt = (seconds: number) => new Date(at(seconds)).toISOString();

describe('waitForRunner', () => {
  it.each([
    [0, 0, NO_RUNNER_REASON],
    [
      1,
      1,
      'Queued for a runner: the one connected runner is busy with another step',
    ],
    [
      3,
      3,
      'Queued for a runner: all 3 connected runners are busy with other steps',
    ],
    [
      1,
      0,
      'Queued for a runner: the one connected runner is free and takes it next',
    ],
    [
      3,
      2,
      'Queued for a runner: 1 of 3 connected runners is free and takes it next',
    ],
    [
      3,
      1,
      'Queued for a runner: 2 of 3 connected runners are free; the first to ask takes it',
    ],
  ])(
    'says why a step waits with %i runners online, %i of them busy',
    (online, busy, reason) => {
      expect(waitForRunner({ online, busy }, at(1))).toEqual({
        waitingForRunner: online === 0,
        reason,
      });
    },
  );

  const oneFree: OnlineRunners = {
    online: 1,
    busy: 0,
    freeLastSeenAt: seenAt(0),
    freeRunnerId: 'build-host-1',
  };

  it('says that a free runner is silent once it has not asked for work in twenty seconds, at its default poll', () => {
    // Five polls of two seconds, after the ten seconds a sighting may go unrecorded.
    expect(waitForRunner(oneFree, at(19)).runnersSilent).toBeUndefined();
    expect(waitForRunner(oneFree, at(25))).toEqual({
      waitingForRunner: false,
      runnersSilent: true,
      reason:
        'Queued for a runner: the one connected runner, build-host-1, is free but has not asked for work for 25s; it may have stopped (killed, or its host lost)',
    });
  });

  it('says at once that a free runner unseen since long before the step was queued is silent', () => {
    // Killed 45 s before the plan was pressed: the Runners card calls it silent already.
    const killed = { ...oneFree, freeLastSeenAt: seenAt(-45) };
    expect(waitForRunner(killed, at(1))).toEqual({
      waitingForRunner: false,
      runnersSilent: true,
      reason:
        'Queued for a runner: the one connected runner, build-host-1, is free but has not asked for work for 46s; it may have stopped (killed, or its host lost)',
    });
  });

  it('waits five of the runners’ polls when they poll less often', () => {
    const slow = { ...oneFree, freePollIntervalMs: 6_000 };
    expect(waitForRunner(slow, at(39)).runnersSilent).toBeUndefined();
    expect(waitForRunner(slow, at(40)).runnersSilent).toBe(true);
  });

  it('counts the silence from a runner seen after the step was queued (it finished another step)', () => {
    const finished = { ...oneFree, freeLastSeenAt: seenAt(20) };
    expect(waitForRunner(finished, at(35)).runnersSilent).toBeUndefined();
    expect(waitForRunner(finished, at(42)).reason).toContain(
      'has not asked for work for 22s',
    );
  });

  it('names the one free runner among busy ones, and counts several free ones', () => {
    expect(
      waitForRunner({ ...oneFree, online: 3, busy: 2 }, at(40)).reason,
    ).toBe(
      'Queued for a runner: build-host-1, the one free runner of 3 connected, has not asked for work for 40s; it may have stopped (killed, or its host lost)',
    );
    expect(
      waitForRunner({ ...oneFree, online: 3, busy: 1 }, at(40)).reason,
    ).toBe(
      'Queued for a runner: 2 of 3 connected runners are free but none has asked for work for 40s; they may have stopped (killed, or their hosts lost)',
    );
  });

  it('never calls busy runners silent', () => {
    expect(
      waitForRunner({ online: 2, busy: 2 }, at(600)).runnersSilent,
    ).toBeUndefined();
  });
});

describe('waitForRunner with required runner labels', () => {
  const runner = (runnerId: string, labels: string[], busy = false) =>
    ({
      runnerId,
      labels,
      busy,
      lastSeenAt: seenAt(0),
    } satisfies OnlineRunner);
  const online = [runner('dev-1', ['env=dev']), runner('ci', [])];

  it('waits for a runner, naming the labels online runners carry, when none carries the required ones', () => {
    const { runners, labels } = runnersFor(online, ['env=prod']);
    expect(waitForRunner(runners, at(1), undefined, undefined, labels)).toEqual(
      {
        waitingForRunner: true,
        requiredRunnerLabels: ['env=prod'],
        reason:
          "No connected runner has the labels env=prod this stack requires; 2 runners are online (labels: env=dev | none). Start a runner with --labels env=prod, or change the stack's required runner labels",
      },
    );
  });

  it('counts only the runners carrying them', () => {
    const { runners, labels } = runnersFor(
      [...online, runner('prod-1', ['env=prod', 'linux'], true)],
      ['env=prod'],
    );
    expect(waitForRunner(runners, at(1), undefined, undefined, labels)).toEqual(
      {
        waitingForRunner: false,
        requiredRunnerLabels: ['env=prod'],
        reason:
          'Queued for a runner: the one connected runner is busy with another step',
      },
    );
  });

  it('says which labels to start a runner with when none is online', () => {
    const { runners, labels } = runnersFor([], ['env=prod', 'region=eu']);
    expect(
      waitForRunner(runners, at(1), undefined, undefined, labels).reason,
    ).toBe(
      `${NO_RUNNER_REASON}; this stack's steps need one with the labels env=prod, region=eu (--labels env=prod,region=eu)`,
    );
  });

  it('keeps the labels reason after a lost runner', () => {
    const { runners, labels } = runnersFor(online, ['env=prod']);
    const wait = waitForRunner(
      runners,
      at(1),
      { runnerId: 'prod-1', stepExecutionId: 's', cause: 'STOPPED_REPORTING' },
      undefined,
      labels,
    );
    expect(wait.waitingForRunner).toBe(true);
    expect(wait.reason).toMatch(
      /^prod-1 stopped reporting during this step .*; the step is queued again\. No connected runner has the labels env=prod/,
    );
  });
});
