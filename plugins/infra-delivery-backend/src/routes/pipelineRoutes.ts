import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { pageScope } from '../pagination/PageCursors';
import { RouteContext } from './RouteContext';

export function registerPipelineRoutes({
  bind,
  services,
  cursors,
}: RouteContext) {
  const pipelines = services.pipelines;

  bind(operations.createPipeline, async ({ caller, body }) => ({
    data: await pipelines.create(caller, body.data),
  }));

  bind(operations.listPipelines, async ({ caller, query }) => {
    const scope = pageScope(
      'pipelines',
      caller.organizationId,
      query.projectId,
    );
    return cursors.list(query, scope, page =>
      pipelines.list(caller, { projectId: query.projectId }, page),
    );
  });

  bind(operations.getPipeline, async ({ caller, params }) => ({
    data: await pipelines.get(caller, params.id),
  }));

  bind(operations.updatePipeline, async ({ caller, params, body }) => ({
    data: await pipelines.update(caller, params.id, body.data),
  }));

  bind(operations.createPipelineVersion, async ({ caller, params, body }) => ({
    data: await pipelines.createVersion(caller, params.id, body.data.steps),
  }));

  bind(operations.listPipelineVersions, async ({ caller, params, query }) => {
    const scope = pageScope(
      'pipeline-versions',
      caller.organizationId,
      params.id,
    );
    return cursors.list(query, scope, page =>
      pipelines.listVersions(caller, params.id, page),
    );
  });

  bind(operations.triggerPipelineRun, async ({ caller, params, body }) => ({
    data: await pipelines.trigger(
      caller,
      params.id,
      body.data,
      operations.triggerPipelineRun.operationId,
    ),
  }));

  bind(operations.listPipelineRuns, async ({ caller, query }) => {
    const { limit: _limit, cursor: _cursor, ...filters } = query;
    const scope = pageScope('pipeline-runs', caller.organizationId, filters);
    return cursors.list(query, scope, page =>
      pipelines.listRuns(caller, query, page),
    );
  });

  bind(operations.getPipelineRun, async ({ caller, params }) => ({
    data: await pipelines.getRun(caller, params.id),
  }));

  const actions = [
    [operations.approvePipelineRun, 'approve'],
    [operations.rejectPipelineRun, 'reject'],
    [operations.cancelPipelineRun, 'cancel'],
    [operations.retryPipelineRun, 'retry'],
  ] as const;
  for (const [operation, action] of actions) {
    bind(operation, async ({ caller, params, body }) => ({
      data: await pipelines.act(caller, params.id, action, body.data.comment),
    }));
  }

  bind(operations.listStepExecutions, async ({ caller, params }) => ({
    data: await pipelines.listSteps(caller, params.id),
  }));

  bind(operations.listStepExecutionLogs, async ({ caller, params, query }) => {
    const scope = pageScope('step-logs', caller.organizationId, params.id);
    return cursors.list(query, scope, page =>
      pipelines.listLogs(caller, params.id, page),
    );
  });
}
