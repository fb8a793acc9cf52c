import { renderHook } from '@testing-library/react';
import { ReactNode } from 'react';
import { DataAsOf } from '../common/DataAsOf';
import { LoadState } from '../common/loadState';
import { useRunnerSilent } from './useRunnerSilent';

const secondsAgo = (seconds: number) =>
  new Date(Date.now() - seconds * 1000).toISOString();

describe('useRunnerSilent', () => {
  // Last seen asking for work 25 s ago: five of its 2 s polls missed, after the 10 s a sighting
  // may go unrecorded.
  const idle = {
    status: 'ONLINE' as const,
    lastSeenAt: secondsAgo(25),
    pollIntervalMs: 2_000,
  };

  const silentWith = (state: LoadState<unknown>) =>
    renderHook(() => useRunnerSilent(idle), {
      wrapper: ({ children }: { children: ReactNode }) => (
        <DataAsOf state={state}>{children}</DataAsOf>
      ),
    }).result.current;

  it('calls a free runner silent when the list was just answered', () => {
    expect(silentWith({ loading: false })).toBe(true);
  });

  it('judges it as of the list’s last answer while the service does not answer', () => {
    // The backend went down 10 s ago (the list's reload unanswered since): as the service knew
    // it, the runner had asked for work 15 s before, within its polls. The card said "Silent —
    // Idle, but no longer asks for work" through the restart.
    expect(
      silentWith({ loading: true, silentSince: Date.now() - 10_000 }),
    ).toBe(false);
    expect(
      silentWith({
        loading: false,
        reloadFailed: { error: new Error('503'), readAt: Date.now() - 10_000 },
      }),
    ).toBe(false);
  });
});
