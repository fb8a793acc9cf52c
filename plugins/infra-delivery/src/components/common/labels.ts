import {
  IacResource,
  IacRunType,
  Role,
  StepType,
} from '@infra-delivery/plugin-infra-delivery-common';

/** The words people read for the service's enum values (the values stay in the API). */
export const RUN_TYPE_LABELS: Record<IacRunType, string> = {
  PLAN: 'Plan',
  APPLY: 'Apply',
  DESTROY: 'Destroy',
};

export const STEP_TYPE_LABELS: Record<StepType, string> = {
  'iac.plan': 'IaC plan',
  'iac.apply': 'IaC apply',
  'iac.destroy': 'IaC destroy',
  approval: 'Approval',
  'container.deploy': 'Container deployment',
};

export const CHANGE_KIND_LABELS: Record<IacResource['changeKind'], string> = {
  REPLACE: 'Replace',
  DELETE: 'Delete',
  CREATE: 'Create',
  UPDATE: 'Update',
  IMPORT: 'Import',
  FORGET: 'Forget',
  READ: 'Read',
  NO_OP: 'No change',
};

export const ROLE_LABELS: Record<Role, string> = {
  OWNER: 'Owner',
  ADMIN: 'Admin',
  MEMBER: 'Member',
  VIEWER: 'Viewer',
};

/**
 * An open-ended constant of a cloud API in words: `SCALE_UP` → `Scale up`,
 * `POST_PRODUCTION_TRAFFIC_SHIFT` → `Post production traffic shift`.
 */
export function constantLabel(constant: string): string {
  const words = constant.toLowerCase().replace(/_+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
