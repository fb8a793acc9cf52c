import { randomBytes } from 'node:crypto';
import { AuditorService } from '@backstage/backend-plugin-api';
import { CloudAccount } from '@infra-delivery/plugin-infra-delivery-common';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { ADMINISTER, READ } from '../auth/requirements';
import { latestRolePolicy } from '../cloud/rolePolicy';
import { CloudAccountRecord } from '../database/CloudAccountStore';
import { isUniqueViolation } from '../database/dbErrors';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { Stores } from '../database/stores';
import { InfraDeliveryError, notFound } from '../errors';
import { audit } from './audit';
import { deploymentsInUse } from './deploymentsInUse';

/** The wire form: the stored account (without its external id) and the latest role version. */
export function toCloudAccount(record: CloudAccountRecord): CloudAccount {
  const { externalId: _externalId, ...account } = record;
  return {
    ...account,
    latestRoleVersion: latestRolePolicy.version,
    latestRoleVersionDescription: latestRolePolicy.description,
  };
}

export async function requireCloudAccount(
  stores: Stores,
  organizationId: string,
  id: string,
): Promise<CloudAccountRecord> {
  const account = await stores.cloudAccounts.get(organizationId, id);
  if (!account) {
    throw notFound('CloudAccount', id);
  }
  return account;
}

/** Cloud accounts of an organization: reading needs VIEWER, changing them ADMIN. */
export class CloudAccountService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      auditor: AuditorService;
    },
  ) {}

  async create(
    caller: Caller,
    input: { name: string; givenId: string; cloudId: string },
  ): Promise<CloudAccount> {
    await this.deps.authorizer.require(caller, ADMINISTER);
    return audit(
      this.deps.auditor,
      'cloud-account-create',
      caller,
      { givenId: input.givenId, cloudId: input.cloudId },
      async () => {
        try {
          const record = await this.deps.stores.transaction(async tx => {
            // One AWS account is registered once: a second registration would hold a second
            // role and external id for it, and its deployments would not be the first's.
            const existing = await tx.cloudAccounts.lockedByCloudId(
              caller.organizationId,
              input.cloudId,
            );
            if (existing) {
              throw cloudIdTaken(existing);
            }
            return tx.cloudAccounts.create({
              organizationId: caller.organizationId,
              ...input,
              externalId: randomBytes(24).toString('base64url'),
            });
          });
          return toCloudAccount(record);
        } catch (error) {
          if (isUniqueViolation(error)) {
            throw new InfraDeliveryError({
              status: 409,
              entity: 'CloudAccount',
              reason: 'GIVEN_ID_TAKEN',
              message: `CloudAccount ${input.givenId} exists already`,
              metadata: { givenId: input.givenId },
            });
          }
          throw error;
        }
      },
    );
  }

  async list(
    caller: Caller,
    page: KeysetRequest,
  ): Promise<KeysetPage<CloudAccount>> {
    await this.deps.authorizer.require(caller, READ);
    const records = await this.deps.stores.cloudAccounts.list(
      caller.organizationId,
      page,
    );
    return { ...records, items: records.items.map(toCloudAccount) };
  }

  async get(caller: Caller, id: string): Promise<CloudAccount> {
    await this.deps.authorizer.require(caller, READ);
    return toCloudAccount(
      await requireCloudAccount(this.deps.stores, caller.organizationId, id),
    );
  }

  async rename(
    caller: Caller,
    id: string,
    input: { name: string },
  ): Promise<CloudAccount> {
    await this.deps.authorizer.require(caller, ADMINISTER);
    const record = await this.deps.stores.cloudAccounts.rename(
      caller.organizationId,
      id,
      input.name,
    );
    if (!record) {
      throw notFound('CloudAccount', id);
    }
    return toCloudAccount(record);
  }

  /**
   * Forgets the account. Stacks that deploy into it are detached (they keep their resources);
   * deployments made with it are not: they are the services' history, and their rollbacks and
   * follow-up need the account, so an account with deployments is refused (409 IN_USE).
   */
  async delete(caller: Caller, id: string): Promise<void> {
    await this.deps.authorizer.require(caller, ADMINISTER);
    await requireCloudAccount(this.deps.stores, caller.organizationId, id);
    await audit(
      this.deps.auditor,
      'cloud-account-delete',
      caller,
      { cloudAccountId: id },
      () =>
        this.deps.stores.transaction(async tx => {
          if (
            !(await tx.cloudAccounts.lockForDelete(caller.organizationId, id))
          ) {
            throw notFound('CloudAccount', id);
          }
          const used = await tx.deployments.countUsing(caller.organizationId, {
            kind: 'cloudAccount',
            id,
          });
          if (used.total > 0) {
            throw deploymentsInUse({ kind: 'cloudAccount', id }, used);
          }
          await tx.cloudAccounts.delete(caller.organizationId, id);
        }),
    );
  }
}

function cloudIdTaken(existing: CloudAccountRecord): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 409,
    entity: 'CloudAccount',
    reason: 'CLOUD_ID_TAKEN',
    message: `AWS account ${existing.cloudId} is registered already, as cloud account ${existing.givenId} ("${existing.name}")`,
    metadata: {
      cloudId: existing.cloudId,
      cloudAccountId: existing.id,
      givenId: existing.givenId,
    },
  });
}
