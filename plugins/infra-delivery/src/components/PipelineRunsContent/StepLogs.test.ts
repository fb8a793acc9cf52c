import { StepStatus } from '@infra-delivery/plugin-infra-delivery-common';
import { logHeight, logText, noLogsText } from './StepLogs';

describe('noLogsText', () => {
  it('says why a step has no log lines', () => {
    expect(noLogsText({ type: 'iac.plan', status: 'RUNNING' })).toBe(
      'No log lines yet.',
    );
    expect(noLogsText({ type: 'iac.plan', status: 'QUEUED' })).toBe(
      'No log lines yet.',
    );
    expect(noLogsText({ type: 'iac.apply', status: 'PENDING' })).toBe(
      'Not started: it runs once the steps before it have ended.',
    );
    expect(noLogsText({ type: 'iac.apply', status: 'SKIPPED' })).toBe(
      'Skipped: it did not run.',
    );
    expect(noLogsText({ type: 'iac.plan', status: 'SUCCEEDED' })).toBe(
      'The step wrote no log lines.',
    );
    expect(
      noLogsText({ type: 'approval', status: 'WAITING_FOR_APPROVAL' }),
    ).toBe('Waits for a person to approve or reject the plan above.');
    expect(noLogsText({ type: 'approval', status: 'CANCELLED' })).toBe(
      'Nobody decided: the run was cancelled first.',
    );
    expect(noLogsText({ type: 'approval', status: 'PENDING' })).toBe(
      'Not started: it runs once the steps before it have ended.',
    );
  });
});

describe('noLogsText of a step that never ran', () => {
  const steps = (...statuses: StepStatus[]) =>
    statuses.map((status, position) => ({
      position,
      status,
      name: ['Plan', 'Approve', 'Apply'][position],
      type: (['iac.plan', 'approval', 'iac.apply'] as const)[position],
    }));
  const skipped = (position: number, completedAt?: string) => ({
    type: 'iac.apply' as const,
    status: 'SKIPPED' as const,
    position,
    completedAt,
  });

  it('says who cancelled the run before it started', () => {
    const run = {
      status: 'CANCELLED' as const,
      error: 'The run was cancelled by guest',
      steps: steps('CANCELLED', 'SKIPPED', 'SKIPPED'),
    };
    expect(noLogsText(skipped(2), run)).toBe(
      'Skipped: the run was cancelled by guest before this step started.',
    );
    // Cancelled while queued, before any step started (a superseded run).
    expect(
      noLogsText(skipped(0), {
        status: 'CANCELLED',
        error: 'A newer commit superseded it',
        steps: steps('SKIPPED', 'SKIPPED', 'SKIPPED'),
      }),
    ).toBe(
      'Skipped: the run was cancelled before this step started (A newer commit superseded it).',
    );
  });

  it('names the step that failed before it, or the approval that was rejected', () => {
    expect(
      noLogsText(skipped(2), {
        status: 'FAILED',
        error: 'Invalid provider configuration',
        steps: steps('FAILED', 'SKIPPED', 'SKIPPED'),
      }),
    ).toBe('Skipped: step 1 “Plan” failed.');
    expect(
      noLogsText(skipped(2), {
        status: 'FAILED',
        error: 'The approval was rejected',
        steps: steps('SUCCEEDED', 'FAILED', 'SKIPPED'),
      }),
    ).toBe('Skipped: the approval in step 2 “Approve” was rejected.');
  });

  it('tells a skip after a plan without changes from a skip at the run’s end', () => {
    expect(
      noLogsText(skipped(2, '2026-11-30T05:00:00.000Z'), {
        status: 'SUCCEEDED',
        steps: steps('SUCCEEDED', 'SKIPPED', 'SKIPPED'),
      }),
    ).toBe('Skipped: the plan before it changes nothing.');
  });

  it('says a step cancelled before it started did not start', () => {
    expect(noLogsText({ type: 'iac.plan', status: 'CANCELLED' })).toBe(
      'Cancelled before it started.',
    );
    expect(
      noLogsText({
        type: 'iac.plan',
        status: 'CANCELLED',
        startedAt: '2026-11-30T05:00:00.000Z',
      }),
    ).toBe('The step wrote no log lines.');
  });
});

describe('logText', () => {
  it('heads each attempt of a retried step, and leaves a single attempt as it is', () => {
    const line = (attemptEpoch: number, text: string) => ({
      attemptEpoch,
      text,
    });
    expect(logText([line(1, 'a'), line(1, 'b')])).toBe('a\nb');
    expect(logText([line(1, 'a'), line(2, 'b'), line(2, 'c')])).toBe(
      ['── Attempt 1 ──', 'a', '── Attempt 2 ──', 'b', 'c'].join('\n'),
    );
  });
});

describe('logHeight', () => {
  it('fits a short log and scrolls a long one', () => {
    expect(logHeight(1)).toBe(logHeight(2));
    expect(logHeight(3)).toBeGreaterThan(logHeight(2));
    expect(logHeight(2)).toBeLessThan(150);
    expect(logHeight(500)).toBe(480);
  });
});
