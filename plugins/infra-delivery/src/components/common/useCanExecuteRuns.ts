import { useApi } from '@backstage/frontend-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import { infraDeliveryRunExecutePermission } from '@internal/plugin-infra-delivery-common';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';

const ACTING_ROLES = ['OWNER', 'ADMIN', 'MEMBER'];

/**
 * Whether the signed-in person may act on runs and deployments: the portal's permission
 * policy must allow it, and their role in the organization must be MEMBER or above. Until the
 * role is known, or if it cannot be read, the permission alone decides; the service checks
 * both on every request anyway.
 */
export function useCanExecuteRuns(): boolean {
  const client = useApi(infraDeliveryApiRef);
  const { allowed, loading } = usePermission({
    permission: infraDeliveryRunExecutePermission,
  });
  const me = useAsync(() => client.call('getCurrentCaller', {}), [client]);
  const role = me.value?.data.role;
  return !loading && allowed && (!role || ACTING_ROLES.includes(role));
}
