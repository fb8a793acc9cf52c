import {
  PipelineRun,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';

/** "Plan & apply" or "Destroy" for a stack's change or destroy pipeline. */
export function pipelineKindOf(
  pipelineId: string,
  stacks: Stack[],
): string | undefined {
  if (stacks.some(stack => stack.changePipelineId === pipelineId)) {
    return 'Plan & apply';
  }
  if (stacks.some(stack => stack.destroyPipelineId === pipelineId)) {
    return 'Destroy';
  }
  return undefined;
}

/**
 * What people call a run: its description, else what it does to which stack ("Destroy ·
 * Network"), never its id.
 */
export function runTitle(run: PipelineRun, stacks: Stack[]): string {
  if (run.description) return run.description;
  const kind = pipelineKindOf(run.pipelineId, stacks) ?? 'Run';
  const stack = stacks.find(s => s.id === run.attachedEntityId)?.name;
  return stack ? `${kind} · ${stack}` : kind;
}

/**
 * What a run is called where its stack is said already (the stack's run history, a row of the
 * stack, a Stack column beside it): its description, else what it does ("Destroy"). Every row
 * of a stack's history said "Plan & apply · Network".
 */
export function runTitleBesideStack(run: PipelineRun, stacks: Stack[]): string {
  return run.description || (pipelineKindOf(run.pipelineId, stacks) ?? 'Run');
}
