import { Knex } from 'knex';
import type { Endpoint } from './endpoints';

const PLUGIN = '/api/infra-delivery';
const OPEN = ['QUEUED', 'RUNNING', 'WAITING_FOR_APPROVAL'];

/** `POST` here starts a run of the pipeline. */
function triggerPath(pipelineId: string): string {
  return `${PLUGIN}/pipelines/${pipelineId}/runs`;
}

/**
 * The two write loads. Each run they make is described as its load, and before each load the
 * runs an earlier load left open are finished (`finishOpenRuns`): otherwise every load would add
 * thousands of open runs to the organization, and the next measurement would pay for them.
 */
export function triggerEndpoints(
  organizationId: string,
  stackIds: string[],
  pipelineId: string,
): Endpoint[] {
  const path = triggerPath(pipelineId);
  const free = 'bench: a run attached to nothing';
  const onStack = 'bench: a run on a free stack';
  // Each request of the stack load takes the next stack: the dataset's own runs are all
  // finished, and a load sends fewer requests than the dataset has stacks (10,000 at scale 1).
  let next = 0;
  const stackBody = () =>
    JSON.stringify({
      data: {
        description: onStack,
        attachedEntityId: stackIds[next++ % stackIds.length],
      },
    });
  return [
    {
      key: 'trigger',
      title: 'trigger a run (write)',
      method: 'POST',
      path,
      body: JSON.stringify({ data: { description: free } }),
      list: false,
      beforeLoad: knex => finishOpenRuns(knex, organizationId, free),
    },
    {
      key: 'trigger-stack',
      title: 'trigger a run on a free stack (write)',
      method: 'POST',
      path,
      body: stackBody(),
      nextBody: stackBody,
      list: false,
      beforeLoad: knex => finishOpenRuns(knex, organizationId, onStack),
    },
  ];
}

/** Triggers per second alongside a read load: ten runners reporting every second, say. */
const WRITES_PER_SECOND = 10;

/**
 * A read load with runs triggered alongside it: each trigger writes, so every read the SQLite
 * read cache remembered is forgotten ten times a second (optimizations 37 and 38 at work in a
 * changing database, where the read loads alone show their best case).
 */
export function readsWhileTriggering(
  organizationId: string,
  pipelineId: string,
  read: Endpoint,
): Endpoint {
  const description = 'bench: a run triggered alongside reads';
  return {
    ...read,
    title: `${read.title}, ${WRITES_PER_SECOND} triggers/s alongside`,
    alongside: {
      perSecond: WRITES_PER_SECOND,
      method: 'POST',
      path: triggerPath(pipelineId),
      body: JSON.stringify({ data: { description } }),
    },
    beforeLoad: knex => finishOpenRuns(knex, organizationId, description),
  };
}

/** Cancels the open runs of a load's description, and their steps that are not finished. */
async function finishOpenRuns(
  knex: Knex,
  organizationId: string,
  description: string,
): Promise<void> {
  const open = () =>
    knex('pipeline_runs')
      .select('id')
      .where({ organization_id: organizationId, description })
      .whereIn('status', OPEN);
  await knex('step_executions')
    .whereIn('pipeline_run_id', open())
    .whereIn('status', [...OPEN, 'PENDING'])
    .update({ status: 'CANCELLED' });
  await knex('pipeline_runs')
    .whereIn('id', open())
    .update({ status: 'CANCELLED', queue_reason: null });
}
