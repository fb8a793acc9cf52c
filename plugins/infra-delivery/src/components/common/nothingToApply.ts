import {
  PipelineRun,
  plansNothingToApply,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useApi } from '@backstage/frontend-plugin-api';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';

/**
 * Whether `run`, once it has succeeded, ended on a plan that found nothing to apply: as its
 * change summary says, or else (a service that does not send it) as its plan summaries say,
 * read once it has (`undefined` until then, or when they cannot be read).
 */
export function useNothingToApply(
  run: Pick<PipelineRun, 'id' | 'status' | 'changeSummary'> | undefined,
): boolean | undefined {
  const client = useApi(infraDeliveryApiRef);
  const carried = run?.changeSummary?.noChanges;
  const succeededId =
    run?.status === 'SUCCEEDED' && carried === undefined ? run.id : undefined;
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
  if (run?.status === 'SUCCEEDED' && carried !== undefined) return carried;
  return value && value.runId === succeededId ? value.nothing : undefined;
}
