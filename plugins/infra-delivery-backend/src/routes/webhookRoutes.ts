import {
  GITHUB_DELIVERY_HEADER,
  GITHUB_EVENT_HEADER,
  GITHUB_SIGNATURE_HEADER,
  operations,
} from '@infra-delivery/plugin-infra-delivery-common';
import express, { ErrorRequestHandler, RequestHandler } from 'express';
import { DeliveryMetrics } from '../metrics/DeliveryMetrics';
import { expressPath } from '../http/bindOperation';
import { pageScope } from '../pagination/PageCursors';
import { Services } from '../services';
import { RouteContext } from './RouteContext';

/** GitHub caps webhook payloads at 25 MB. */
const WEBHOOK_BODY_LIMIT = 25 * 1024 * 1024;

/**
 * The webhook endpoint's signature check, mounted before the JSON parser: an endpoint that
 * names no App with a webhook secret (404) or a delivery without a signature (401) is refused
 * before its body is read; the signature is checked over the exact body bytes, and only then
 * is the body parsed.
 */
export function githubWebhookGuard(services: Services): {
  path: string;
  handlers: RequestHandler[];
} {
  const { webhookDeliveries } = services;
  return {
    path: expressPath(operations.receiveGithubWebhook.path),
    handlers: [
      (req, _res, next) => {
        webhookDeliveries.requireEndpoint(
          req.params.forgeHost,
          req.params.appId,
        );
        webhookDeliveries.requireSignature(req.get(GITHUB_SIGNATURE_HEADER));
        next();
      },
      express.raw({
        type: () => true,
        limit: WEBHOOK_BODY_LIMIT,
        inflate: false,
      }),
      (req, _res, next) => {
        req.body = webhookDeliveries.authenticate(
          req.params.forgeHost,
          req.params.appId,
          req.get(GITHUB_SIGNATURE_HEADER),
          Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
          req.get('content-type'),
        );
        next();
      },
    ],
  };
}

/**
 * Counts a delivery the endpoint refused (no such App, a bad signature, a body too large or
 * malformed: GitHub shows it failed) or could not record (the database away), then lets the
 * error handler answer it. Mounted on the endpoint's path after every route.
 */
export function countRefusedDeliveries(
  metrics: DeliveryMetrics,
): ErrorRequestHandler {
  return (error, req, _res, next) => {
    if (req.method === 'POST') {
      const status = Number((error as { status?: unknown })?.status);
      metrics.webhookDelivery(status >= 500 ? 'unrecorded' : 'rejected');
    }
    next(error);
  };
}

export function registerWebhookRoutes({
  bind,
  services,
  cursors,
}: RouteContext) {
  // The signature was checked by githubWebhookGuard before the body was parsed.
  bind(operations.receiveGithubWebhook, async ({ params, body, req }) => ({
    data: await services.webhookDeliveries.receive({
      forgeHost: params.forgeHost,
      appId: params.appId,
      event: req.get(GITHUB_EVENT_HEADER),
      deliveryGuid: req.get(GITHUB_DELIVERY_HEADER),
      payload: body,
    }),
  }));

  bind(operations.listWebhookDeliveries, async ({ caller, query }) => {
    const scope = pageScope('webhook-deliveries', caller.organizationId);
    return cursors.list(query, scope, page =>
      services.webhookDeliveries.list(caller, page),
    );
  });
}
