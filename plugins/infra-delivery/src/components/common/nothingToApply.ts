import {
  IacExecutionSummary,
  PipelineRun,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useApi } from '@backstage/frontend-plugin-api';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';

/**
 * Whether a plan found nothing to apply (+0 ~0 −0): the run then skipped its approval and
 * apply. The one place that says so, for the run page's plan summary and the messages and
 * lists that otherwise said only "has finished" / Succeeded of such a run.
 */
export function plansNothingToApply(summary: IacExecutionSummary): boolean {
  return summary.runType === 'PLAN' && !summary.applyable;
}

/** What a run that found nothing to apply is said to have done. */
export const NOTHING_TO_APPLY = 'No changes: nothing to apply';

/**
 * Whether `run`, once it has succeeded, ended on a plan that found nothing to apply: its plan
 * summaries are read once it has (`undefined` until then, or when they cannot be read).
 */
export function useNothingToApply(
  run: Pick<PipelineRun, 'id' | 'status'> | undefined,
): boolean | undefined {
  const client = useApi(infraDeliveryApiRef);
  const succeededId = run?.status === 'SUCCEEDED' ? run.id : undefined;
  const { value } = useAsync(async () => {
    if (!succeededId) return undefined;
    try {
      const answer = await client.call('listIacExecutionSummaries', {
        query: { pipelineRunId: succeededId },
      });
      return {
        runId: succeededId,
        nothing: answer.data.some(plansNothingToApply),
      };
    } catch {
      return undefined;
    }
  }, [client, succeededId]);
  return value && value.runId === succeededId ? value.nothing : undefined;
}
