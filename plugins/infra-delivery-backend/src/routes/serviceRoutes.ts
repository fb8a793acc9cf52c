import { operations } from '@internal/plugin-infra-delivery-common';
import { Router } from 'express';
import { bindOperation } from '../http/bindOperation';
import { OpenApiDocument } from '@internal/plugin-infra-delivery-common';

export function registerServiceRoutes(
  router: Router,
  options: { openApiDocument: OpenApiDocument },
) {
  bindOperation(router, operations.getHealth, async () => ({
    status: 'ok' as const,
  }));
  bindOperation(
    router,
    operations.getOpenApiDocument,
    async () => options.openApiDocument,
  );
}
