import { attemptStartedAt } from './attemptStartedAt';

describe('attemptStartedAt', () => {
  it('times a retried run from its latest attempt, a first attempt from its start', () => {
    const first = {
      attemptEpoch: 1,
      startedAt: '2026-11-29T10:00:00.000Z',
      lastAttemptStartedAt: '2026-11-29T10:00:00.000Z',
    };
    expect(attemptStartedAt(first)).toBe('2026-11-29T10:00:00.000Z');
    expect(
      attemptStartedAt({
        ...first,
        attemptEpoch: 2,
        lastAttemptStartedAt: '2026-11-29T10:12:25.000Z',
      }),
    ).toBe('2026-11-29T10:12:25.000Z');
    // A run retried by a service that kept no attempt start: its own start.
    expect(
      attemptStartedAt({
        attemptEpoch: 2,
        startedAt: first.startedAt,
      }),
    ).toBe(first.startedAt);
  });
});
