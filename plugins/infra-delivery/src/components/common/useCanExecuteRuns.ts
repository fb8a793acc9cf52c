import { useApi } from '@backstage/frontend-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import {
  infraDeliveryDeploymentRollbackPermission,
  infraDeliveryRunExecutePermission,
} from '@internal/plugin-infra-delivery-common';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';

const ACTING_ROLES = ['OWNER', 'ADMIN', 'MEMBER'];

/**
 * Whether the signed-in person may take an action guarded by `permission`: the portal's
 * permission policy must allow it, and their role in the organization must be MEMBER or
 * above. Until the role is known, or if it cannot be read, the permission alone decides; the
 * service checks both on every request anyway.
 */
function useCanAct(
  permission: typeof infraDeliveryRunExecutePermission,
): boolean {
  const client = useApi(infraDeliveryApiRef);
  const { allowed, loading } = usePermission({ permission });
  const me = useAsync(() => client.call('getCurrentCaller', {}), [client]);
  const role = me.value?.data.role;
  return !loading && allowed && (!role || ACTING_ROLES.includes(role));
}

/** Trigger, approve, reject, cancel and retry runs; continue a paused deployment. */
export function useCanExecuteRuns(): boolean {
  return useCanAct(infraDeliveryRunExecutePermission);
}

/** Roll a service back to an earlier deployment. */
export function useCanRollBack(): boolean {
  return useCanAct(infraDeliveryDeploymentRollbackPermission);
}
