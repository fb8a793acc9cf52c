import { usePermission } from '@backstage/plugin-permission-react';
import {
  infraDeliveryDeploymentRollbackPermission,
  infraDeliveryResourceWritePermission,
  infraDeliveryRunExecutePermission,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useCallerRole } from './useCallerRole';

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
  const { allowed, loading } = usePermission({ permission });
  const { role } = useCallerRole();
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

/** Change projects, environments and stacks (a stack's trigger rules, say). */
export function useCanWriteResources(): boolean {
  return useCanAct(infraDeliveryResourceWritePermission);
}
