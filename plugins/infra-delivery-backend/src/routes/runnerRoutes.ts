import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { clientGone } from '../http/clientGone';
import { pageScope } from '../pagination/PageCursors';
import { RouteContext } from './RouteContext';

export function registerRunnerRoutes({
  bind,
  services,
  cursors,
}: RouteContext) {
  const runners = services.runners;

  bind(operations.listRunners, async ({ caller, query }) => {
    const scope = pageScope('runners', caller.organizationId, query.status);
    return cursors.list(query, scope, page =>
      runners.list(caller, query.status, page),
    );
  });

  bind(operations.claimStepExecution, async ({ caller, body, req }) => {
    const claim = await runners.claim(caller, body.data, clientGone(req));
    return claim && { data: claim };
  });

  bind(operations.signOffRunner, async ({ caller, body }) => {
    await runners.signOff(caller, body.data.runnerId, body.data.instanceId);
  });

  bind(operations.heartbeatStepExecution, async ({ caller, params, body }) => ({
    data: await runners.heartbeat(
      caller,
      params.id,
      body.data.leaseToken,
      body.data.heartbeatIntervalMs,
    ),
  }));

  bind(operations.appendStepExecutionLogs, async ({ caller, params, body }) => {
    const cancelled = await runners.appendLogs(
      caller,
      params.id,
      body.data.leaseToken,
      body.data.lines,
    );
    return cancelled && { data: cancelled };
  });

  bind(operations.completeStepExecution, async ({ caller, params, body }) => {
    const { leaseToken, ...result } = body.data;
    return {
      data: await runners.complete(caller, params.id, leaseToken, result),
    };
  });
}
