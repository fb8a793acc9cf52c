import {
  OpenApiDocument,
  operations,
} from '@infra-delivery/plugin-infra-delivery-common';
import { BindOperation } from '../http/bindOperation';

export function registerServiceRoutes(
  bind: BindOperation,
  options: { openApiDocument: OpenApiDocument },
) {
  bind(operations.getHealth, async () => ({ status: 'ok' as const }));
  bind(operations.getOpenApiDocument, async () => options.openApiDocument);
}
