import { AuditorService } from '@backstage/backend-plugin-api';
import {
  Role,
  ServiceAccount,
} from '@infra-delivery/plugin-infra-delivery-common';
import { ADMINISTER, ADMINISTER_ADMINS, READ } from '../auth/requirements';
import { Authorizer } from '../auth/Authorizer';
import { actorIdOf, Caller } from '../auth/Caller';
import { managedByOwners } from '../auth/roles';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { PipelineEngine } from '../engine/PipelineEngine';
import { isUniqueViolation } from '../database/dbErrors';
import { Stores } from '../database/stores';
import { InfraDeliveryError, notFound } from '../errors';
import { actorNameOf } from './actorName';
import { audit } from './audit';

function nameTaken(name: string) {
  return new InfraDeliveryError({
    status: 409,
    entity: 'ServiceAccount',
    reason: 'NAME_TAKEN',
    message: `A service account named "${name}" exists already`,
    metadata: { name },
  });
}

/**
 * Non-human principals (runners, automation); they act through their API keys. ADMINs create
 * and delete MEMBER and VIEWER service accounts; ADMIN ones are an OWNER's.
 */
export class ServiceAccountService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      auditor: AuditorService;
      engine: PipelineEngine;
    },
  ) {}

  async create(
    caller: Caller,
    input: { name: string; description?: string; role: Exclude<Role, 'OWNER'> },
  ): Promise<ServiceAccount> {
    await this.deps.authorizer.require(caller, ADMINISTER);
    if (managedByOwners(input.role)) {
      await this.deps.authorizer.require(
        caller,
        ADMINISTER_ADMINS,
        'Only an OWNER can create an ADMIN service account',
      );
    }
    return audit(
      this.deps.auditor,
      'service-account-create',
      caller,
      { role: input.role },
      async () => {
        try {
          return await this.deps.stores.serviceAccounts.create({
            organizationId: caller.organizationId,
            name: input.name,
            description: input.description,
            role: input.role,
            createdById: actorIdOf(caller),
          });
        } catch (error) {
          // Names are unique in an organization: they are what a runner is called by.
          if (isUniqueViolation(error)) {
            throw nameTaken(input.name);
          }
          throw error;
        }
      },
    );
  }

  async list(
    caller: Caller,
    page: KeysetRequest,
  ): Promise<KeysetPage<ServiceAccount>> {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.stores.serviceAccounts.list(caller.organizationId, page);
  }

  async get(caller: Caller, id: string): Promise<ServiceAccount> {
    await this.deps.authorizer.require(caller, READ);
    const account = await this.deps.stores.serviceAccounts.get(
      caller.organizationId,
      id,
    );
    if (!account) {
      throw notFound('ServiceAccount', id);
    }
    return account;
  }

  async delete(caller: Caller, id: string): Promise<void> {
    await this.deps.authorizer.require(caller, ADMINISTER);
    // A service account's role never changes: read before the transaction, so that the
    // permission framework is not asked while it holds the database.
    const account = await this.deps.stores.serviceAccounts.get(
      caller.organizationId,
      id,
    );
    if (!account) {
      throw notFound('ServiceAccount', id);
    }
    if (managedByOwners(account.role)) {
      await this.deps.authorizer.require(
        caller,
        ADMINISTER_ADMINS,
        'Only an OWNER can delete an ADMIN service account',
      );
    }
    await audit(
      this.deps.auditor,
      'service-account-delete',
      caller,
      { serviceAccountId: id },
      async () => {
        const by = await actorNameOf(this.deps.stores, caller);
        const { engine } = this.deps;
        const requeued = await this.deps.stores.transaction(async tx => {
          // Its runners can no longer report: OFFLINE, and their steps queued again, at once.
          const runIds = await engine.releaseRevokedRunners(
            tx,
            {
              organizationId: caller.organizationId,
              serviceAccountId: id,
              cause: 'ACCOUNT_DELETED',
              by,
            },
            (runnerId, attemptEpoch) =>
              `${runnerId}'s service account ${account.name} was deleted by ${by}; the step is queued again as attempt ${attemptEpoch}`,
          );
          await tx.apiKeys.deleteForOwner(
            caller.organizationId,
            'SERVICE_ACCOUNT',
            id,
          );
          if (!(await tx.serviceAccounts.delete(caller.organizationId, id))) {
            throw notFound('ServiceAccount', id);
          }
          return runIds;
        });
        await engine.announceRequeued(requeued);
      },
    );
  }
}
