import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { pageScope } from '../pagination/PageCursors';
import { RouteContext } from './RouteContext';

export function registerStackRoutes({ bind, services, cursors }: RouteContext) {
  bind(operations.createStack, async ({ caller, body }) => ({
    data: await services.stacks.create(caller, body.data),
  }));

  bind(operations.listStacks, async ({ caller, query }) => {
    const filter = {
      projectId: query.projectId,
      environmentId: query.environmentId,
      driftStatuses: query.driftStatus,
      ids: query.id,
    };
    const scope = pageScope('stacks', caller.organizationId, filter);
    return cursors.list(query, scope, page =>
      services.stacks.list(caller, filter, page),
    );
  });

  bind(operations.getStack, async ({ caller, params }) => ({
    data: await services.stacks.get(caller, params.id),
  }));

  bind(operations.deleteStack, async ({ caller, params }) => {
    await services.stacks.delete(caller, params.id);
  });

  bind(operations.updateStack, async ({ caller, params, body }) => ({
    data: await services.stacks.update(caller, params.id, body.data),
  }));

  bind(operations.destroyStack, async ({ caller, params, body }) => {
    const stack = await services.stacks.get(caller, params.id);
    return {
      data: await services.pipelines.trigger(
        caller,
        stack.destroyPipelineId,
        { description: body.data.description ?? 'Destroy the stack' },
        operations.destroyStack.operationId,
      ),
    };
  });
}
