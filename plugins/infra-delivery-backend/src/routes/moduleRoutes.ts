import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { pageScope } from '../pagination/PageCursors';
import { RouteContext } from './RouteContext';

export function registerModuleRoutes({
  bind,
  services,
  cursors,
}: RouteContext) {
  bind(operations.createModuleDefinition, async ({ caller, body }) => ({
    data: await services.moduleDefinitions.create(caller, body.data),
  }));

  bind(operations.listModuleDefinitions, async ({ caller, query }) => {
    const filter = { codeSourceId: query.codeSourceId };
    const scope = pageScope(
      'module-definitions',
      caller.organizationId,
      filter,
    );
    return cursors.list(query, scope, page =>
      services.moduleDefinitions.list(caller, filter, page),
    );
  });

  bind(operations.getModuleDefinition, async ({ caller, params }) => ({
    data: await services.moduleDefinitions.get(caller, params.id),
  }));

  bind(operations.updateModuleDefinition, async ({ caller, params, body }) => ({
    data: await services.moduleDefinitions.update(caller, params.id, body.data),
  }));

  bind(operations.deleteModuleDefinition, async ({ caller, params }) => {
    await services.moduleDefinitions.delete(caller, params.id);
  });

  bind(operations.createModuleVersion, async ({ caller, params, body }) => ({
    data: await services.moduleDefinitions.createVersion(
      caller,
      params.id,
      body.data,
    ),
  }));

  bind(operations.listModuleVersions, async ({ caller, params, query }) => {
    const scope = pageScope(
      'module-versions',
      caller.organizationId,
      params.id,
    );
    return cursors.list(query, scope, page =>
      services.moduleDefinitions.listVersions(caller, params.id, page),
    );
  });

  bind(operations.getModuleVersion, async ({ caller, params }) => ({
    data: await services.moduleDefinitions.getVersion(caller, params.id),
  }));

  bind(operations.createModuleInstance, async ({ caller, body }) => ({
    data: await services.moduleInstances.create(caller, body.data),
  }));

  bind(operations.listModuleInstances, async ({ caller, query }) => {
    const filter = {
      environmentId: query.environmentId,
      moduleDefinitionId: query.moduleDefinitionId,
      moduleVersionId: query.moduleVersionId,
    };
    const scope = pageScope('module-instances', caller.organizationId, filter);
    return cursors.list(query, scope, page =>
      services.moduleInstances.list(caller, filter, page),
    );
  });

  bind(operations.getModuleInstance, async ({ caller, params }) => ({
    data: await services.moduleInstances.get(caller, params.id),
  }));

  bind(operations.updateModuleInstance, async ({ caller, params, body }) => ({
    data: await services.moduleInstances.update(caller, params.id, body.data),
  }));

  bind(operations.deleteModuleInstance, async ({ caller, params }) => {
    await services.moduleInstances.delete(caller, params.id);
  });
}
