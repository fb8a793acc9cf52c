import {
  RunKind,
  RunStatus,
} from '@infra-delivery/plugin-infra-delivery-common';

/** A change of a run's status, for live views. */
export interface RunStatusChange {
  organizationId: string;
  runId: string;
  pipelineId: string;
  attachedEntityId?: string;
  status: RunStatus;
  /** What made the run: only pull request plans are reported to GitHub. */
  kind?: RunKind;
  /** Set when a decision on the run's approval made the change: approved or rejected, and by whom. */
  approval?: { approved: boolean; decidedById?: string };
}

/** New log lines of a step, for live log views. */
export interface StepLogsAppended {
  organizationId: string;
  pipelineRunId: string;
  stepExecutionId: string;
}

/** Where the engine announces run changes (Backstage signals in the plugin). */
export interface RunEvents {
  runChanged(change: RunStatusChange): Promise<void>;
  /** Optional: views without live logs need not implement it. */
  stepLogsAppended?(appended: StepLogsAppended): Promise<void>;
}
