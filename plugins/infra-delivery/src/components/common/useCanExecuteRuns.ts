import { usePermission } from '@backstage/plugin-permission-react';
import {
  infraDeliveryDeploymentRollbackPermission,
  infraDeliveryResourceWritePermission,
  infraDeliveryRunExecutePermission,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useCallerRole } from './useCallerRole';

const ACTING_ROLES = ['OWNER', 'ADMIN', 'MEMBER'];

/** Whether the signed-in person may take an action, and when not, why (once that is known). */
export interface ActionGate {
  allowed: boolean;
  /** What stops them, for a button shown disabled: the portal's policy or their role. */
  reason?: string;
}

/**
 * Whether the signed-in person may take an action guarded by `permission`: the portal's
 * permission policy must allow it, and their role in the organization must be MEMBER or
 * above. Until the role is known, or if it cannot be read, the permission alone decides; the
 * service checks both on every request anyway. The action is named in the reason as `verb`
 * ("deploy") and `gerund` ("Deploying").
 */
function useActionGate(
  permission: typeof infraDeliveryRunExecutePermission,
  { verb, gerund }: { verb: string; gerund: string },
): ActionGate {
  const { allowed, loading } = usePermission({ permission });
  const { role } = useCallerRole();
  if (loading) return { allowed: false };
  if (!allowed) {
    return {
      allowed: false,
      reason: `The portal's permission policy does not let you ${verb}.`,
    };
  }
  if (role && !ACTING_ROLES.includes(role)) {
    return {
      allowed: false,
      reason: `${gerund} takes the MEMBER role or above in the organization; yours is ${role}.`,
    };
  }
  return { allowed: true };
}

function useCanAct(
  permission: typeof infraDeliveryRunExecutePermission,
): boolean {
  return useActionGate(permission, { verb: 'act', gerund: 'Acting' }).allowed;
}

/** Start a deployment of a service (a new image), with the reason when not. */
export function useDeployGate(): ActionGate {
  return useActionGate(infraDeliveryRunExecutePermission, {
    verb: 'deploy',
    gerund: 'Deploying',
  });
}

/** What a button offered while the permission and role are still being read says. */
export const CHECKING_PERMISSIONS = 'Checking your permissions…';

/**
 * Whether an action is allowed, and whether that is still being checked (the permission or
 * the role not read yet). Views where buttons would appear late show them disabled while
 * `checking` (saying `CHECKING_PERMISSIONS`): in the stack drawer, Plan & apply, Edit
 * settings and Check for drift arrived a moment after the drawer and pushed the sections
 * under them down as one read the drawer.
 */
function useActionCheck(permission: typeof infraDeliveryRunExecutePermission): {
  allowed: boolean;
  checking: boolean;
} {
  const { allowed, loading } = usePermission({ permission });
  const { role, loading: roleLoading } = useCallerRole();
  return {
    allowed: !loading && allowed && (!role || ACTING_ROLES.includes(role)),
    checking: loading || (allowed && roleLoading),
  };
}

/** `useCanExecuteRuns`, with whether it is still being checked. */
export function useRunsCheck() {
  return useActionCheck(infraDeliveryRunExecutePermission);
}

/** `useCanWriteResources`, with whether it is still being checked. */
export function useResourceWriteCheck() {
  return useActionCheck(infraDeliveryResourceWritePermission);
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
