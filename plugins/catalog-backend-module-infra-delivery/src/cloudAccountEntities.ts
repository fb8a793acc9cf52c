import { Entity } from '@backstage/catalog-model';
import {
  ANNOTATION_CLOUD_ACCOUNT,
  CloudAccount,
} from '@infra-delivery/plugin-infra-delivery-common';
import { cloudAccountEntityName, managedAnnotations } from './entityNames';

/** `connected` or `awaiting-connection`: a label, so that the catalog can filter on it. */
export const LABEL_CLOUD_ACCOUNT_STATUS = 'infra-delivery.io/status';
/** The 12-digit AWS account id. */
export const ANNOTATION_AWS_ACCOUNT_ID = 'infra-delivery.io/aws-account-id';
/** The role policy version the account is connected with. */
export const ANNOTATION_ROLE_VERSION = 'infra-delivery.io/role-version';
/** The newest role policy version; differing from the connected one means an upgrade waits. */
export const ANNOTATION_LATEST_ROLE_VERSION =
  'infra-delivery.io/latest-role-version';

/**
 * A cloud account as a Resource (type `cloud-account`). Stacks that deploy into it depend on
 * it, so the catalog graph shows which infrastructure lives in which AWS account.
 */
export function cloudAccountEntity(
  account: CloudAccount,
  options: { owner: string; portalBaseUrl?: string },
): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Resource',
    metadata: {
      name: cloudAccountEntityName(account),
      title: account.name,
      description: `AWS account ${account.cloudId}`,
      labels: {
        [LABEL_CLOUD_ACCOUNT_STATUS]: account.status
          .toLowerCase()
          .replace(/_/g, '-'),
      },
      annotations: managedAnnotations({
        [ANNOTATION_CLOUD_ACCOUNT]: account.id,
        [ANNOTATION_AWS_ACCOUNT_ID]: account.cloudId,
        [ANNOTATION_LATEST_ROLE_VERSION]: account.latestRoleVersion,
        ...(account.roleVersion
          ? { [ANNOTATION_ROLE_VERSION]: account.roleVersion }
          : {}),
      }),
      ...(options.portalBaseUrl
        ? {
            links: [
              {
                url: `${options.portalBaseUrl}/infra-delivery/cloud-accounts`,
                title: 'Cloud accounts in the portal',
              },
            ],
          }
        : {}),
    },
    spec: { type: 'cloud-account', owner: options.owner },
  };
}
