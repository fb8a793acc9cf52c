import { PipelineRun } from '@infra-delivery/plugin-infra-delivery-common';

/** When a run started, or when it was created if it has not started yet. */
export const runStartedAt = (run: PipelineRun): string =>
  run.startedAt ?? run.createdAt;
