import { createHash } from 'node:crypto';
import {
  CATALOG_MODULE_LOCATION,
  CloudAccount,
  Environment,
  Project,
} from '@infra-delivery/plugin-infra-delivery-common';

/** The origin recorded on every emitted entity. */
export const LOCATION = CATALOG_MODULE_LOCATION;

/** The catalog's limit on `metadata.name`. */
const MAX_NAME_LENGTH = 63;

/**
 * A valid entity name for `text` (built from givenIds, so already lowercase with dashes). A
 * name too long for the catalog is cut and given a hash of the whole, so that two long
 * givenIds sharing a prefix still get different names.
 */
export function boundedEntityName(text: string): string {
  if (text.length <= MAX_NAME_LENGTH) {
    return text;
  }
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 8);
  const head = text
    .slice(0, MAX_NAME_LENGTH - hash.length - 1)
    .replace(/-+$/, '');
  return `${head}-${hash}`;
}

export const projectEntityName = (project: Project) =>
  boundedEntityName(`infra-project-${project.givenId}`);

export const environmentEntityName = (
  project: Project,
  environment: Environment,
) => boundedEntityName(`infra-${project.givenId}-${environment.givenId}`);

/** Stack entities are named by id so that annotations on components can point at them. */
export const stackEntityName = (stackId: string) => `stack-${stackId}`;

export const cloudAccountEntityName = (account: CloudAccount) =>
  boundedEntityName(`cloud-account-${account.givenId}`);

/** The annotations every emitted entity carries, with the entity's own. */
export function managedAnnotations(extra: Record<string, string>) {
  return {
    'backstage.io/managed-by-location': `url:${LOCATION}`,
    'backstage.io/managed-by-origin-location': `url:${LOCATION}`,
    ...extra,
  };
}
