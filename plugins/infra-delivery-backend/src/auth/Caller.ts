import { BackstageCredentials } from '@backstage/backend-plugin-api';
import { Role } from '@infra-delivery/plugin-infra-delivery-common';

/** Who acts: a member of the organization, a service account, or another Backstage plugin. */
export type CallerPrincipal =
  | { type: 'membership'; membershipId: string; userId: string }
  | { type: 'service-account'; serviceAccountId: string }
  | { type: 'backstage-service'; subject: string };

/** How the caller proved who they are. */
export type CredentialKind =
  | 'backstage-user'
  | 'backstage-service'
  | 'access-token'
  | 'api-key';

/** The authenticated caller of a request, resolved once by the plugin's own middleware. */
export interface Caller {
  organizationId: string;
  role: Role;
  principal: CallerPrincipal;
  credentialKind: CredentialKind;
  /** Present for Backstage tokens: the permission framework is consulted with them. */
  backstageCredentials?: BackstageCredentials;
  /**
   * The access epoch (database/AccessEpochStore.ts) the caller was found valid under: read
   * when the request arrived, before anything else. What an instance remembers under the
   * same epoch still holds for this request. Absent for Backstage service callers, whose
   * resolution reads nothing.
   */
  accessEpoch?: number;
  /**
   * The API key the caller signed in with (`credentialKind` api-key): a runner is recorded with
   * it, so that revoking it turns that runner OFFLINE and queues its step again at once.
   */
  apiKeyId?: string;
}

/** The id recorded as `createdById` for what the caller creates. */
export function actorIdOf(caller: Caller): string {
  switch (caller.principal.type) {
    case 'membership':
      return caller.principal.membershipId;
    case 'service-account':
      return caller.principal.serviceAccountId;
    default:
      return caller.principal.subject;
  }
}
