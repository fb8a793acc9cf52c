import {
  INGEST_TOKEN_HEADER,
  operations,
} from '@internal/plugin-infra-delivery-common';
import { pageScope } from '../pagination/PageCursors';
import { RouteContext } from './RouteContext';

export function registerDeploymentRoutes({
  bind,
  services,
  cursors,
}: RouteContext) {
  const { deployments, infrastructureEvents } = services;

  bind(operations.listDeployments, async ({ caller, query }) => {
    const { limit: _limit, cursor: _cursor, ...filter } = query;
    const scope = pageScope(
      'deployments',
      caller.organizationId,
      filter.environmentId,
      filter.moduleInstanceId,
      filter.status,
      filter.clusterRef,
      filter.serviceRef,
    );
    return cursors.list(query, scope, page =>
      deployments.list(caller, filter, page),
    );
  });

  bind(operations.getDeployment, async ({ caller, params }) => ({
    data: await deployments.get(caller, params.id),
  }));

  bind(operations.createDeployment, async ({ caller, body }) => ({
    data: await deployments.create(caller, body.data),
  }));

  bind(operations.rollbackDeployment, async ({ caller, params }) => ({
    data: await deployments.rollback(caller, params.id),
  }));

  bind(operations.continueDeployment, async ({ caller, params }) => ({
    data: await deployments.continue(caller, params.id),
  }));

  bind(operations.ingestInfrastructureEvent, async ({ req, body }) => {
    infrastructureEvents.checkIngestToken(req.get(INGEST_TOKEN_HEADER));
    return { data: await infrastructureEvents.ingest(body) };
  });

  bind(operations.listInfrastructureEvents, async ({ caller, query }) => ({
    data: { data: await infrastructureEvents.list(caller, query) },
  }));
}
