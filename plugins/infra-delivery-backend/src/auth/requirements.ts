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

/** Rolling a service back to an earlier deployment's release. */
export const ROLLBACK: Requirement = {
  role: 'MEMBER',
  permission: infraDeliveryDeploymentRollbackPermission,
};
