import { AuditorService } from '@backstage/backend-plugin-api';
import { ApiKey } from '@infra-delivery/plugin-infra-delivery-common';
import { generateApiKey } from '../auth/apiKeyFormat';
import { Authorizer } from '../auth/Authorizer';
import { ADMINISTER, READ } from '../auth/requirements';
import { actorIdOf, Caller } from '../auth/Caller';
import { roleAtLeast } from '../auth/roles';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { Stores } from '../database/stores';
import { InfraDeliveryError, notFound } from '../errors';
import { audit } from './audit';

type OwnerType = ApiKey['ownerType'];
interface Owner {
  ownerType: OwnerType;
  ownerId: string;
}

/** The caller's own principal as a key owner, when it can own keys. */
function ownOwner(caller: Caller): Owner | undefined {
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

function isOwn(caller: Caller, owner: Owner): boolean {
  const own = ownOwner(caller);
  return own?.ownerType === owner.ownerType && own.ownerId === owner.ownerId;
}

/**
 * API keys: everybody manages the keys of their own membership; ADMINs manage every key,
 * including those of service accounts, but create keys only for themselves and service accounts:
 * a key for another person's membership would act as them. The key value leaves the service
 * once, at creation.
 */
export class ApiKeyService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      auditor: AuditorService;
    },
  ) {}

  private async requireManage(caller: Caller, owner: Owner) {
    await this.deps.authorizer.require(
      caller,
      isOwn(caller, owner) ? READ : ADMINISTER,
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
      await this.requireManage(caller, owner as Owner);
    } else if (roleAtLeast(caller.role, 'ADMIN')) {
      await this.deps.authorizer.require(caller, ADMINISTER);
    } else {
      // Without a filter, whoever is not an ADMIN sees their own keys.
      owner = ownOwner(caller) ?? { ownerType: 'MEMBERSHIP', ownerId: '' };
      await this.requireManage(caller, owner as Owner);
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
        : ownOwner(caller);
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
    if (owner.ownerType === 'MEMBERSHIP' && !isOwn(caller, owner)) {
      // A key for someone else's membership would act as them, whatever their role.
      throw new InfraDeliveryError({
        status: 403,
        entity: 'ApiKey',
        reason: 'FOREIGN_MEMBERSHIP',
        message: 'Only the member can create an API key for their membership',
      });
    }
    await this.requireOwnerExists(caller.organizationId, owner);

    const generated = generateApiKey();
    return audit(
      this.deps.auditor,
      'api-key-create',
      caller,
      { ownerType: owner.ownerType, ownerId: owner.ownerId },
      async () => {
        const apiKey = await this.deps.stores.apiKeys.create({
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
    await audit(
      this.deps.auditor,
      'api-key-revoke',
      caller,
      { apiKeyId: id },
      async () => {
        await this.deps.stores.apiKeys.delete(caller.organizationId, id);
      },
    );
  }

  private async requireOwnerExists(organizationId: string, owner: Owner) {
    const exists =
      owner.ownerType === 'MEMBERSHIP'
        ? (
            await this.deps.stores.memberships.get(
              organizationId,
              owner.ownerId,
            )
          )?.userId
        : await this.deps.stores.serviceAccounts.get(
            organizationId,
            owner.ownerId,
          );
    if (!exists) {
      throw notFound(
        owner.ownerType === 'MEMBERSHIP' ? 'Membership' : 'ServiceAccount',
        owner.ownerId,
      );
    }
  }
}
