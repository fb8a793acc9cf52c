import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { mappedOnce } from '../lib/oncePerFrozenValue';
import { pageScope } from '../pagination/PageCursors';
import { RouteContext } from './RouteContext';

/**
 * #24's answer around its counts: for counts mapped from remembered rows, made once and sent
 * as its kept bytes while they live (lib/frozenAnswers.ts).
 */
const countsAnswer = mappedOnce(
  (counts: { stackId: string; count: number }[]) => ({
    data: { counts },
  }),
);

export function registerIacRoutes({ bind, services, cursors }: RouteContext) {
  const results = services.iacResults;

  bind(operations.listIacExecutionSummaries, async ({ caller, query }) => {
    const { limit: _l, cursor: _c, ...filter } = query;
    const scope = pageScope('iac-summaries', caller.organizationId, filter);
    return cursors.list(query, scope, page =>
      results.listSummaries(caller, filter, page),
    );
  });

  bind(operations.listIacResources, async ({ caller, query }) => {
    const { limit: _l, cursor: _c, ...filter } = query;
    const scope = pageScope('iac-resources', caller.organizationId, filter);
    return cursors.list(query, scope, page =>
      results.listResources(caller, filter, page),
    );
  });

  bind(
    operations.listStepExecutionIacResources,
    async ({ caller, params, query }) => {
      const scope = pageScope(
        'step-resources',
        caller.organizationId,
        params.id,
      );
      return cursors.list(query, scope, page =>
        results.listStepResources(caller, params.id, page),
      );
    },
  );

  bind(operations.countStackResources, async ({ caller, query }) =>
    countsAnswer(await results.countStackResources(caller, query.stackId)),
  );
}
