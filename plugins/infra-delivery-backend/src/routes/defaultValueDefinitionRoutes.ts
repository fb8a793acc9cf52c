import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { pageScope } from '../pagination/PageCursors';
import { RouteContext } from './RouteContext';

export function registerDefaultValueDefinitionRoutes({
  bind,
  services,
  cursors,
}: RouteContext) {
  bind(operations.createDefaultValueDefinition, async ({ caller, body }) => ({
    data: await services.defaultValueDefinitions.create(caller, body.data),
  }));

  bind(
    operations.updateDefaultValueDefinition,
    async ({ caller, params, body }) => ({
      data: await services.defaultValueDefinitions.update(
        caller,
        params.id,
        body.data,
      ),
    }),
  );

  bind(operations.deleteDefaultValueDefinition, async ({ caller, params }) => {
    await services.defaultValueDefinitions.delete(caller, params.id);
  });

  bind(operations.listDefaultValueDefinitions, async ({ caller, query }) => {
    const scope = pageScope('default-value-definitions', caller.organizationId);
    return cursors.list(query, scope, page =>
      services.defaultValueDefinitions.list(caller, page),
    );
  });
}
