import { createPermission } from '@backstage/plugin-permission-common';

/**
 * Backstage permissions of the plugin. They narrow what portal users may do on top of the
 * plugin's own roles (OWNER ⊃ ADMIN ⊃ MEMBER ⊃ VIEWER); they never widen it.
 */
export const infraDeliveryReadPermission = createPermission({
  name: 'infra-delivery.read',
  attributes: { action: 'read' },
});

/** Trigger, approve, reject, cancel and retry pipeline runs. */
export const infraDeliveryRunExecutePermission = createPermission({
  name: 'infra-delivery.run.execute',
  attributes: { action: 'update' },
});

export const infraDeliveryDeploymentRollbackPermission = createPermission({
  name: 'infra-delivery.deployment.rollback',
  attributes: { action: 'update' },
});

/** Create and change projects, environments, stacks, pipelines and definitions. */
export const infraDeliveryResourceWritePermission = createPermission({
  name: 'infra-delivery.resource.write',
  attributes: { action: 'update' },
});

/** Members, service accounts, API keys and cloud accounts. */
export const infraDeliveryAdministerPermission = createPermission({
  name: 'infra-delivery.administer',
  attributes: { action: 'update' },
});

export const infraDeliveryPermissions = [
  infraDeliveryReadPermission,
  infraDeliveryRunExecutePermission,
  infraDeliveryDeploymentRollbackPermission,
  infraDeliveryResourceWritePermission,
  infraDeliveryAdministerPermission,
];
