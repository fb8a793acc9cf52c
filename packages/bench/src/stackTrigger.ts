import { Knex } from 'knex';
import type { Endpoint } from './endpoints';

const PLUGIN = '/api/infra-delivery';

/** What the stack trigger's runs are described as: how `freeStacks` finds them. */
const DESCRIPTION = 'bench: a run on a free stack';
const OPEN = ['QUEUED', 'RUNNING', 'WAITING_FOR_APPROVAL'];

/**
 * The portal's Plan button: a run attached to a stack, admitted at once when no run holds the
 * stack. Each request takes the next stack, and before each load the runs an earlier load left
 * open are finished, so every run is admitted on a free stack: the dataset's own runs are all
 * finished, and a load sends fewer requests than the dataset has stacks (10,000 at scale 1).
 */
export function stackTriggerEndpoint(
  organizationId: string,
  stackIds: string[],
  pipelineId: string,
): Endpoint {
  let next = 0;
  const body = () =>
    JSON.stringify({
      data: {
        description: DESCRIPTION,
        attachedEntityId: stackIds[next++ % stackIds.length],
      },
    });
  return {
    key: 'trigger-stack',
    title: 'trigger a run on a free stack (write)',
    method: 'POST',
    path: `${PLUGIN}/pipelines/${pipelineId}/runs`,
    body: body(),
    nextBody: body,
    list: false,
    beforeLoad: knex => freeStacks(knex, organizationId),
  };
}

/** Cancels the runs earlier stack-trigger loads left open, and their steps. */
async function freeStacks(knex: Knex, organizationId: string): Promise<void> {
  const open = () =>
    knex('pipeline_runs')
      .select('id')
      .where({ organization_id: organizationId, description: DESCRIPTION })
      .whereIn('status', OPEN);
  await knex('step_executions')
    .whereIn('pipeline_run_id', open())
    .whereNotIn('status', ['SUCCEEDED', 'FAILED', 'CANCELLED', 'SKIPPED'])
    .update({ status: 'CANCELLED' });
  await knex('pipeline_runs')
    .whereIn('id', open())
    .update({ status: 'CANCELLED', queue_reason: null });
}
