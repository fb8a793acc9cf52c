import { LoggerService } from '@backstage/backend-plugin-api';
import {
  buildOpenApiDocument,
  operations,
} from '@internal/plugin-infra-delivery-common';
import express from 'express';
import Router from 'express-promise-router';
import { InfraDeliveryError } from './errors';
import { createErrorHandler } from './http/errorHandler';
import { requestIdMiddleware } from './http/requestId';
import { registerServiceRoutes } from './routes/serviceRoutes';

/** Ordinary request bodies; plan JSON from runners gets its own, larger limit. */
export const DEFAULT_BODY_LIMIT = '1mb';

export interface RouterOptions {
  logger: LoggerService;
}

export async function createRouter(
  options: RouterOptions,
): Promise<express.Router> {
  const router = Router();
  router.use(requestIdMiddleware);
  router.use(express.json({ limit: DEFAULT_BODY_LIMIT }));

  registerServiceRoutes(router, {
    openApiDocument: buildOpenApiDocument(Object.values(operations)),
  });

  router.use((req, _res, next) => {
    next(
      new InfraDeliveryError({
        status: 404,
        entity: 'Route',
        reason: 'NOT_FOUND',
        message: `No operation at ${req.method} ${req.path}`,
      }),
    );
  });
  router.use(createErrorHandler(options.logger));
  return router;
}
