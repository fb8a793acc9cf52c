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
