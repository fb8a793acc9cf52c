import {
  infraDeliveryAdministerPermission,
  infraDeliveryDeploymentRollbackPermission,
  infraDeliveryReadPermission,
  infraDeliveryResourceWritePermission,
  infraDeliveryRunExecutePermission,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Requirement } from './Authorizer';

/** Reading anything of the organization. */
export const READ: Requirement = {
  role: 'VIEWER',
  permission: infraDeliveryReadPermission,
};

/** Creating and changing projects, environments, stacks, pipelines and definitions. */
export const WRITE: Requirement = {
  role: 'MEMBER',
  permission: infraDeliveryResourceWritePermission,
};

/** Triggering, approving, rejecting, cancelling and retrying runs; running steps. */
export const EXECUTE: Requirement = {
  role: 'MEMBER',
  permission: infraDeliveryRunExecutePermission,
};

/** Members, service accounts, API keys, cloud accounts, the organization itself. */
export const ADMINISTER: Requirement = {
  role: 'ADMIN',
  permission: infraDeliveryAdministerPermission,
};

/**
 * Acting on an ADMIN (or OWNER) principal: granting or taking away ADMIN, inviting an ADMIN,
 * creating or deleting an ADMIN service account, creating or revoking its keys. ADMINs manage
 * MEMBERs and VIEWERs; ADMINs are managed by OWNERs.
 */
export const ADMINISTER_ADMINS: Requirement = {
  role: 'OWNER',
  permission: infraDeliveryAdministerPermission,
};

/** Rolling a service back to an earlier deployment's release. */
export const ROLLBACK: Requirement = {
  role: 'MEMBER',
  permission: infraDeliveryDeploymentRollbackPermission,
};
