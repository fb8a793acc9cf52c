import { logHeight, noLogsText } from './StepLogs';

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

describe('logHeight', () => {
  it('fits a short log and scrolls a long one', () => {
    expect(logHeight(1)).toBe(logHeight(2));
    expect(logHeight(3)).toBeGreaterThan(logHeight(2));
    expect(logHeight(2)).toBeLessThan(150);
    expect(logHeight(500)).toBe(320);
  });
});
