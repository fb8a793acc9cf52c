import {
  DefaultValueDefinition,
  ValueSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import { READ, WRITE } from '../auth/requirements';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { isUniqueViolation } from '../database/dbErrors';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { Stores } from '../database/stores';
import { InfraDeliveryError, notFound } from '../errors';

/** Default values offered to module inputs, each described by a ValueSchema. */
export class DefaultValueDefinitionService {
  constructor(
    private readonly deps: { stores: Stores; authorizer: Authorizer },
  ) {}

  async create(
    caller: Caller,
    input: {
      givenId: string;
      name: string;
      schema: ValueSchema;
      description?: string;
    },
  ): Promise<DefaultValueDefinition> {
    await this.deps.authorizer.require(caller, WRITE);
    try {
      return await this.deps.stores.defaultValueDefinitions.create({
        organizationId: caller.organizationId,
        ...input,
        createdByType:
          caller.principal.type === 'membership' ? 'USER' : 'SERVICE_ACCOUNT',
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new InfraDeliveryError({
          status: 409,
          entity: 'DefaultValueDefinition',
          reason: 'GIVEN_ID_TAKEN',
          message: `A default value definition ${input.givenId} exists already`,
          metadata: { givenId: input.givenId },
        });
      }
      throw error;
    }
  }

  async update(
    caller: Caller,
    id: string,
    patch: { name?: string; description?: string; schema?: ValueSchema },
  ): Promise<DefaultValueDefinition> {
    await this.deps.authorizer.require(caller, WRITE);
    const definition = await this.deps.stores.defaultValueDefinitions.update(
      caller.organizationId,
      id,
      patch,
    );
    if (!definition) {
      throw notFound('DefaultValueDefinition', id);
    }
    return definition;
  }

  async list(
    caller: Caller,
    page: KeysetRequest,
  ): Promise<KeysetPage<DefaultValueDefinition>> {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.stores.defaultValueDefinitions.list(
      caller.organizationId,
      page,
    );
  }

  /**
   * Deletes a definition unless an input of a module version names it in `default_from`:
   * instances of that version would lose the default they were made with, and a required
   * input would refuse every change of them. Nothing refuses a version's JSON inputs naming a
   * deleted definition (no foreign key): the definition's row is locked before the versions are
   * read, and a release locks the definitions it names (`createVersion`), so that a release at
   * the same moment either comes first and is found here, or waits and finds it gone.
   */
  async delete(caller: Caller, id: string): Promise<void> {
    await this.deps.authorizer.require(caller, WRITE);
    const { organizationId } = caller;
    await this.deps.stores.transaction(async tx => {
      const definition = await tx.defaultValueDefinitions.getForDelete(
        organizationId,
        id,
      );
      if (!definition) {
        throw notFound('DefaultValueDefinition', id);
      }
      const users = await tx.moduleDefinitions.versionsNamingDefault(
        organizationId,
        definition.givenId,
      );
      if (users.length > 0) {
        const named = users.map(u => `${u.moduleName} ${u.version}`);
        throw new InfraDeliveryError({
          status: 409,
          entity: 'DefaultValueDefinition',
          reason: 'IN_USE',
          message: `Module versions take their default from ${definition.givenId}; it can be deleted once no module version names it`,
          details: [
            {
              title: `Module versions naming ${definition.givenId}`,
              render: 'list',
              items: named,
            },
          ],
          metadata: { givenId: definition.givenId, moduleVersions: named },
        });
      }
      await tx.defaultValueDefinitions.delete(organizationId, id);
    });
  }
}
