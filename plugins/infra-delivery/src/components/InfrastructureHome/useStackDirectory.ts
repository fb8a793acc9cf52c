import { useApi } from '@backstage/frontend-plugin-api';
import {
  Pipeline,
  PipelineRun,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { infraDeliveryApiRef } from '../../api';
import { pipelineKindOf } from '../common/runTitle';
import { useReloadableAsync } from '../common/useReloadableAsync';

/** The organization's stacks and pipelines, to name runs by what people know them as. */
export interface StackDirectory {
  stacks: Stack[];
  /** The stack a run belongs to: the entity it is attached to, else its pipeline's stack. */
  stackOf(run: PipelineRun): Stack | undefined;
  /**
   * What the run is called beside its stack's name: its description, else what it does to its
   * stack ("Plan & apply", "Destroy"), else its pipeline's name.
   */
  titleOf(run: PipelineRun): string;
}

export function stackDirectory(
  stacks: Stack[],
  pipelines: Pipeline[],
): StackDirectory {
  const stacksById = new Map(stacks.map(stack => [stack.id, stack]));
  const pipelinesById = new Map(pipelines.map(p => [p.id, p]));
  const stackOf = (run: PipelineRun) =>
    (run.attachedEntityId && stacksById.get(run.attachedEntityId)) ||
    stacksById.get(pipelinesById.get(run.pipelineId)?.stackId ?? '');
  return {
    stacks,
    stackOf,
    titleOf: run =>
      run.description ??
      pipelineKindOf(run.pipelineId, stacks) ??
      pipelinesById.get(run.pipelineId)?.name ??
      'Run',
  };
}

/** The organization's stacks and pipelines (the newest 500 of each). */
export function useStackDirectory() {
  const client = useApi(infraDeliveryApiRef);
  return useReloadableAsync(async () => {
    const [stacks, pipelines] = await Promise.all([
      client.call('listStacks', { query: { limit: 500 } }),
      client.call('listPipelines', { query: { limit: 500 } }),
    ]);
    return stackDirectory(stacks.data, pipelines.data);
  }, [client]);
}
