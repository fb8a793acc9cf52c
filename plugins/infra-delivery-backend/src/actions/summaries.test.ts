import { PipelineRun } from '@infra-delivery/plugin-infra-delivery-common';
import { runSummary } from './summaries';

const run: PipelineRun = {
  id: '0193a8c0-0000-7000-8000-000000000001',
  organizationId: '0193a8c0-0000-7000-8000-000000000002',
  pipelineId: '0193a8c0-0000-7000-8000-000000000003',
  pipelineVersionId: '0193a8c0-0000-7000-8000-000000000004',
  attemptEpoch: 1,
  isCancellable: true,
  status: 'RUNNING',
  createdAt: '2026-11-28T12:00:00.000Z',
  updatedAt: '2026-11-28T12:00:00.000Z',
};

describe('runSummary', () => {
  it('tells an agent that the free runners have gone silent, and why the run waits', () => {
    const reason =
      'Queued for a runner: the one connected runner, build-host-1, is free but has not asked for work for 25s; it may have stopped (killed, or its host lost)';
    expect(
      runSummary({
        ...run,
        queueState: {
          preflightBlockedByAdmissionCondition: false,
          stackRunPreflightPending: false,
          waitingForRunner: false,
          runnersSilent: true,
          reason,
        },
      }),
    ).toMatchObject({
      waitingForRunner: false,
      runnersSilent: true,
      queueReason: reason,
    });
  });

  it('leaves runnersSilent out while the runners are about to claim', () => {
    const summary = runSummary({
      ...run,
      queueState: {
        preflightBlockedByAdmissionCondition: false,
        stackRunPreflightPending: false,
        waitingForRunner: false,
        reason:
          'Queued for a runner: the one connected runner is free and takes it next',
      },
    });
    expect(summary).toMatchObject({ waitingForRunner: false });
    expect(summary).not.toHaveProperty('runnersSilent');
  });
});
