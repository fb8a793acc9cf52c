import {
  INGEST_TOKEN_HEADER,
  operations,
} from '@infra-delivery/plugin-infra-delivery-common';
import { RequestHandler } from 'express';
import { expressPath } from '../http/bindOperation';
import { pageScope } from '../pagination/PageCursors';
import { Services } from '../services';
import { RouteContext } from './RouteContext';

/**
 * The ingestion endpoint's credential check, mounted before any body parser: a sender without
 * the token is refused with a 401 before a byte of its body is read.
 */
export function ingestTokenGuard(services: Services): {
  path: string;
  handler: RequestHandler;
} {
  return {
    path: expressPath(operations.ingestInfrastructureEvent.path),
    handler: (req, _res, next) => {
      services.infrastructureEvents.checkIngestToken(
        req.get(INGEST_TOKEN_HEADER),
      );
      next();
    },
  };
}

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

  bind(operations.cancelDeployment, async ({ caller, params }) => ({
    data: await deployments.cancel(caller, params.id),
  }));

  bind(operations.redeployDeployment, async ({ caller, params }) => ({
    data: await deployments.redeploy(caller, params.id),
  }));

  // The token was checked by ingestTokenGuard before the body was parsed.
  bind(operations.ingestInfrastructureEvent, async ({ body }) => ({
    data: await infrastructureEvents.ingest(body),
  }));

  bind(operations.listInfrastructureEvents, async ({ caller, query }) => ({
    data: { data: await infrastructureEvents.list(caller, query) },
  }));
}
