import { useApi } from '@backstage/frontend-plugin-api';
import {
  DRIFTED_CHANGE_KINDS,
  IacResource,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';

/** At most this many resources of a drift check are read; the rest are counted. */
const RESOURCE_PAGE = 500;

/**
 * A stack's drift: the resources its latest drift check found drifted (#14 by that run, with
 * before and after), and the actions on it: check now, reconcile.
 */
export function useDrift(stack: Stack) {
  const client = useApi(infraDeliveryApiRef);
  const checkRunId = stack.lastDriftCheckRunId;
  const drifted = useAsync(async (): Promise<IacResource[]> => {
    if (!checkRunId || stack.driftStatus !== 'DRIFTED') {
      return [];
    }
    const page = await client.call('listIacResources', {
      query: { pipelineRunId: checkRunId, limit: RESOURCE_PAGE },
    });
    return page.data.filter(
      resource =>
        resource.mode === 'managed' &&
        DRIFTED_CHANGE_KINDS.includes(resource.changeKind),
    );
  }, [client, checkRunId, stack.driftStatus]);

  return {
    drifted,
    checkNow: () =>
      client.call('startStackDriftCheck', {
        params: { id: stack.id },
        body: { data: {} },
      }),
    reconcile: () =>
      client.call('reconcileStackDrift', {
        params: { id: stack.id },
        body: { data: {} },
      }),
  };
}
