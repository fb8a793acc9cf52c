import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { pageScope } from '../pagination/PageCursors';
import { RouteContext } from './RouteContext';

export function registerCodeSourceRoutes({
  bind,
  services,
  cursors,
}: RouteContext) {
  bind(operations.createCodeSource, async ({ caller, body }) => ({
    data: await services.codeSources.create(caller, body.data),
  }));

  bind(operations.listCodeSources, async ({ caller, query }) => {
    const scope = pageScope('code-sources', caller.organizationId);
    return cursors.list(query, scope, page =>
      services.codeSources.list(caller, page),
    );
  });

  bind(operations.getCodeSource, async ({ caller, params }) => ({
    data: await services.codeSources.get(caller, params.id),
  }));

  bind(operations.verifyCodeSource, async ({ caller, params }) => ({
    data: await services.codeSources.verify(caller, params.id),
  }));

  bind(operations.deleteCodeSource, async ({ caller, params }) => {
    await services.codeSources.delete(caller, params.id);
  });

  bind(operations.getModuleYamlExists, async ({ caller, params, query }) => ({
    data: await services.codeSources.moduleYamlExists(caller, params.id, query),
  }));
}
