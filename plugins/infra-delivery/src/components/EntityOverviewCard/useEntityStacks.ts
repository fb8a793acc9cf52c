import { useApi } from '@backstage/frontend-plugin-api';
import {
  PipelineRun,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { infraDeliveryApiRef } from '../../api';
import { bothLoaded, LoadState } from '../common/loadState';
import { pipelineKindOf } from '../common/runTitle';
import { runStartedAt } from '../common/runStartedAt';
import { useLatestRunPerStack } from '../common/useLatestRunPerStack';
import { loadVisibleStacks } from '../common/visibleStacks';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { useLivePolling } from '../common/useLivePolling';
import { useBlockingRuns } from '../PipelineRunsContent/useBlockingRuns';
import { BlockingRun } from '../PipelineRunsContent/WhyItWaits';

/** One of the entity's stacks with its newest run. */
export interface EntityStack {
  stackId: string;
  /** Undefined when the stack does not exist (any more) or is not visible. */
  stack?: Stack;
  latestRun?: PipelineRun;
  /** Its latest run held (QUEUED): the run that holds the stack, and what keeps that one. */
  blocker?: BlockingRun;
}

export interface EntityStacks {
  stacks: EntityStack[];
  /**
   * The newest run of all the stacks, with its stack and what it is called: its description,
   * else what it does to the stack ("Plan & apply", "Destroy").
   */
  latestRun?: {
    run: PipelineRun;
    stack?: Stack;
    title: string;
    /** Held (QUEUED): the run that holds its stack, and what keeps that one. */
    blocker?: BlockingRun;
  };
}

/** The stacks the entity's annotation names, each with its newest run, and the newest of all. */
export function useEntityStacks(stackIds: string[]): LoadState<EntityStacks> {
  const client = useApi(infraDeliveryApiRef);
  const stacks = useReloadableAsync(
    () => loadVisibleStacks(client, stackIds),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [client, stackIds.join(',')],
  );
  // The stacks change as their runs end (a drift check's finding): read again as idle views
  // are; their runs are read again by `useLatestRunPerStack`.
  useLivePolling(stacks.retry);
  const latestRuns = useLatestRunPerStack(stackIds);
  // The holder of a held run is read again with each load of the latest runs.
  const blockerOf = useBlockingRuns(
    latestRuns.value,
    (stacks.value ?? []).filter((stack): stack is Stack => Boolean(stack)),
  );
  const { value: both, ...state } = bothLoaded(stacks, latestRuns);
  if (!both) return state;
  const [found, runs] = both;
  const rows = stackIds.map((stackId, i) => {
    const run = runs.get(stackId);
    return {
      stackId,
      stack: found[i],
      latestRun: run,
      blocker: run && blockerOf(run),
    };
  });
  const newest = rows
    .flatMap(({ latestRun: run, stack }) => (run ? [{ run, stack }] : []))
    .sort(
      (a, b) =>
        Date.parse(runStartedAt(b.run)) - Date.parse(runStartedAt(a.run)),
    )[0];
  const latestRun = newest && {
    ...newest,
    title:
      newest.run.description ??
      pipelineKindOf(
        newest.run.pipelineId,
        newest.stack ? [newest.stack] : [],
      ) ??
      'Run',
    blocker: blockerOf(newest.run),
  };
  return {
    ...state,
    value: {
      stacks: rows,
      latestRun,
    },
  };
}
