import { AuditorService } from '@backstage/backend-plugin-api';
import { ApiKey, Role } from '@infra-delivery/plugin-infra-delivery-common';
import { generateApiKey } from '../auth/apiKeyFormat';
import { Authorizer } from '../auth/Authorizer';
import { ADMINISTER, ADMINISTER_ADMINS, READ } from '../auth/requirements';
import { actorIdOf, Caller } from '../auth/Caller';
import { managedByOwners, roleAtLeast } from '../auth/roles';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { PipelineEngine } from '../engine/PipelineEngine';
import { Stores } from '../database/stores';
import { InfraDeliveryError, notFound } from '../errors';
import { actorNameOf } from './actorName';
import { audit } from './audit';

type OwnerType = ApiKey['ownerType'];
interface Owner {
  ownerType: OwnerType;
  ownerId: string;
}

/**
 * The caller's own principal as a key owner: the owner of a key created without naming one,
 * and whose keys a caller who is not an ADMIN lists.
 */
function callerAsOwner(caller: Caller): Owner | undefined {
  if (caller.principal.type === 'membership') {
    return { ownerType: 'MEMBERSHIP', ownerId: caller.principal.membershipId };
  }
  if (caller.principal.type === 'service-account') {
    return {
      ownerType: 'SERVICE_ACCOUNT',
      ownerId: caller.principal.serviceAccountId,
    };
  }
  return undefined;
}

function isCallerAsOwner(caller: Caller, owner: Owner): boolean {
  const own = callerAsOwner(caller);
  return own?.ownerType === owner.ownerType && own.ownerId === owner.ownerId;
}

/**
 * Keys the caller creates and revokes without being an ADMIN: only their own membership's. A
 * service account does not manage its own keys: a leaked key would otherwise mint keys that
 * outlive its revocation.
 */
function isOwnMembership(caller: Caller, owner: Owner): boolean {
  return owner.ownerType === 'MEMBERSHIP' && isCallerAsOwner(caller, owner);
}

/**
 * API keys: every member manages the keys of their own membership; ADMINs manage every key,
 * including those of service accounts, but create keys only for themselves and service accounts:
 * a key for another person's membership would act as them. A service account's keys are made
 * and revoked by ADMINs only, never by the account itself; it may list them. Keys of an ADMIN
 * service account, and other ADMINs' and OWNERs' keys, are an OWNER's to make and revoke, as
 * everything about an ADMIN principal is. The key value leaves the service once, at creation.
 */
export class ApiKeyService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      auditor: AuditorService;
      engine: PipelineEngine;
    },
  ) {}

  /** Creating or revoking a key of `owner`. */
  private async requireManage(caller: Caller, owner: Owner) {
    if (isOwnMembership(caller, owner)) {
      await this.deps.authorizer.require(caller, READ);
      return;
    }
    await this.deps.authorizer.require(
      caller,
      ADMINISTER,
      owner.ownerType === 'SERVICE_ACCOUNT'
        ? 'Only an ADMIN can create or revoke the API keys of a service account'
        : undefined,
    );
  }

  /** Listing the keys of `owner`: one's own, or anybody's for an ADMIN. */
  private async requireList(caller: Caller, owner: Owner) {
    await this.deps.authorizer.require(
      caller,
      isCallerAsOwner(caller, owner) ? READ : ADMINISTER,
    );
  }

  async list(
    caller: Caller,
    filter: Partial<Owner>,
    page: KeysetRequest,
  ): Promise<KeysetPage<ApiKey>> {
    let owner: Partial<Owner> = {};
    if (filter.ownerType && filter.ownerId) {
      owner = { ownerType: filter.ownerType, ownerId: filter.ownerId };
      await this.requireList(caller, owner as Owner);
    } else if (roleAtLeast(caller.role, 'ADMIN')) {
      await this.deps.authorizer.require(caller, ADMINISTER);
    } else {
      // Without a filter, whoever is not an ADMIN sees their own keys.
      owner = callerAsOwner(caller) ?? { ownerType: 'MEMBERSHIP', ownerId: '' };
      await this.requireList(caller, owner as Owner);
    }
    return this.deps.stores.apiKeys.list(caller.organizationId, owner, page);
  }

  async create(
    caller: Caller,
    input: {
      name: string;
      description?: string;
      expiresAt?: string;
      ownerType?: OwnerType;
      ownerId?: string;
    },
  ): Promise<ApiKey & { key: string }> {
    const owner: Owner | undefined =
      input.ownerType && input.ownerId
        ? { ownerType: input.ownerType, ownerId: input.ownerId }
        : callerAsOwner(caller);
    if (!owner) {
      throw new InfraDeliveryError({
        status: 400,
        entity: 'ApiKey',
        reason: 'OWNER_REQUIRED',
        message: 'This caller owns no keys itself; name ownerType and ownerId',
      });
    }
    if (input.expiresAt && new Date(input.expiresAt) <= new Date()) {
      throw new InfraDeliveryError({
        status: 400,
        entity: 'ApiKey',
        reason: 'EXPIRY_IN_PAST',
        message: 'expiresAt must be in the future',
      });
    }
    await this.requireManage(caller, owner);
    if (owner.ownerType === 'MEMBERSHIP' && !isOwnMembership(caller, owner)) {
      // A key for someone else's membership would act as them, whatever their role.
      throw new InfraDeliveryError({
        status: 403,
        entity: 'ApiKey',
        reason: 'FOREIGN_MEMBERSHIP',
        message: 'Only the member can create an API key for their membership',
      });
    }
    const ownerRole = await this.requireOwnerExists(
      caller.organizationId,
      owner,
    );
    if (!isOwnMembership(caller, owner)) {
      await this.requireOwnerForAdmins(caller, owner, ownerRole, 'create');
    }

    const generated = generateApiKey();
    return audit(
      this.deps.auditor,
      'api-key-create',
      caller,
      { ownerType: owner.ownerType, ownerId: owner.ownerId },
      async () => {
        // The owner may be deleted (or leave) meanwhile: read again under the lock its
        // deletion takes before deleting its keys, so that the key is deleted with the owner,
        // or refused with a 404, never kept for nobody after a 201.
        const apiKey = await this.deps.stores.transaction(async tx => {
          await tx.apiKeys.holdOwners();
          await this.requireOwnerExists(caller.organizationId, owner, tx);
          return tx.apiKeys.create({
            organizationId: caller.organizationId,
            lookupId: generated.lookupId,
            secretHash: generated.secretHash,
            keySuffix: generated.keySuffix,
            name: input.name,
            description: input.description,
            ownerType: owner.ownerType,
            ownerId: owner.ownerId,
            createdById: actorIdOf(caller),
            expiresAt: input.expiresAt,
          });
        });
        return { ...apiKey, key: generated.key };
      },
    );
  }

  async revoke(caller: Caller, id: string): Promise<void> {
    const apiKey = await this.deps.stores.apiKeys.get(
      caller.organizationId,
      id,
    );
    if (!apiKey) {
      throw notFound('ApiKey', id);
    }
    await this.requireManage(caller, apiKey);
    if (!isOwnMembership(caller, apiKey)) {
      await this.requireOwnerForAdmins(
        caller,
        apiKey,
        await this.ownerRole(caller.organizationId, apiKey),
        'revoke',
      );
    }
    await audit(
      this.deps.auditor,
      'api-key-revoke',
      caller,
      { apiKeyId: id },
      async () => {
        const by = await actorNameOf(this.deps.stores, caller);
        const { engine } = this.deps;
        // In the revocation's transaction: the runners that signed in with the key can no
        // longer report; they read OFFLINE, and their steps are queued again, at once.
        const requeued = await this.deps.stores.transaction(async tx => {
          const serviceAccountId =
            apiKey.ownerType === 'SERVICE_ACCOUNT' ? apiKey.ownerId : undefined;
          // A runner recorded before its key was: all of an account left without a key.
          const keyless =
            serviceAccountId !== undefined &&
            (await tx.apiKeys.countForOwner(
              caller.organizationId,
              'SERVICE_ACCOUNT',
              serviceAccountId,
              id,
            )) === 0;
          const runIds = await engine.releaseRevokedRunners(
            tx,
            {
              organizationId: caller.organizationId,
              apiKeyId: id,
              serviceAccountId: keyless ? serviceAccountId : undefined,
              cause: 'KEY_REVOKED',
              by,
            },
            (runnerId, attemptEpoch) =>
              `${runnerId}'s API key was revoked by ${by}; the step is queued again as attempt ${attemptEpoch}`,
          );
          if (!(await tx.apiKeys.delete(caller.organizationId, id))) {
            throw notFound('ApiKey', id);
          }
          return runIds;
        });
        await engine.announceRequeued(requeued);
      },
    );
  }

  /** Keys of an ADMIN or OWNER principal are an OWNER's to create and revoke. */
  private async requireOwnerForAdmins(
    caller: Caller,
    owner: Owner,
    ownerRole: Role | undefined,
    what: 'create' | 'revoke',
  ) {
    if (ownerRole && managedByOwners(ownerRole)) {
      await this.deps.authorizer.require(
        caller,
        ADMINISTER_ADMINS,
        owner.ownerType === 'SERVICE_ACCOUNT'
          ? `Only an OWNER can ${what} the API keys of an ${ownerRole} service account`
          : `Only an OWNER can ${what} the API keys of an ${ownerRole}`,
      );
    }
  }

  /** The role of a key's owner; undefined when there is no such member (yet) or account. */
  private async ownerRole(
    organizationId: string,
    owner: Owner,
    stores: Stores = this.deps.stores,
  ): Promise<Role | undefined> {
    if (owner.ownerType === 'MEMBERSHIP') {
      const membership = await stores.memberships.get(
        organizationId,
        owner.ownerId,
      );
      // An invitation not yet accepted owns no keys.
      return membership?.userId ? membership.role : undefined;
    }
    return (await stores.serviceAccounts.get(organizationId, owner.ownerId))
      ?.role;
  }

  /** The owner's role; a 404 when the member or service account does not exist. */
  private async requireOwnerExists(
    organizationId: string,
    owner: Owner,
    stores: Stores = this.deps.stores,
  ): Promise<Role> {
    const role = await this.ownerRole(organizationId, owner, stores);
    if (!role) {
      throw notFound(
        owner.ownerType === 'MEMBERSHIP' ? 'Membership' : 'ServiceAccount',
        owner.ownerId,
      );
    }
    return role;
  }
}
