import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { RouteContext } from './RouteContext';

export function registerDriftRoutes({ bind, services }: RouteContext) {
  bind(operations.startStackDriftCheck, async ({ caller, params, body }) => ({
    data: await services.drift.startCheck(
      caller,
      params.id,
      body.data.description,
    ),
  }));

  bind(operations.reconcileStackDrift, async ({ caller, params, body }) => ({
    data: await services.drift.reconcile(
      caller,
      params.id,
      body.data.description,
    ),
  }));
}
