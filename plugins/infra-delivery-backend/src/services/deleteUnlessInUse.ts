import { isForeignKeyViolation } from '../database/dbErrors';
import { Stores } from '../database/stores';
import { InfraDeliveryError, notFound } from '../errors';

/**
 * Deletes a resource unless something still uses it, in one transaction: 404 when it is not
 * there, 409 `IN_USE` when `countUsers` finds a user, and 409 as well when a user was added
 * between the count and the delete (the foreign key refuses the delete then).
 */
export async function deleteUnlessInUse(
  stores: Stores,
  resource: {
    entity: string;
    id: string;
    /** Says what still uses it and what to do first. */
    inUseMessage: string;
    exists(tx: Stores): Promise<boolean>;
    countUsers(tx: Stores): Promise<number>;
    remove(tx: Stores): Promise<unknown>;
  },
): Promise<void> {
  const inUse = () =>
    new InfraDeliveryError({
      status: 409,
      entity: resource.entity,
      reason: 'IN_USE',
      message: resource.inUseMessage,
    });
  try {
    await stores.transaction(async tx => {
      if (!(await resource.exists(tx))) {
        throw notFound(resource.entity, resource.id);
      }
      if ((await resource.countUsers(tx)) > 0) {
        throw inUse();
      }
      await resource.remove(tx);
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw inUse();
    }
    throw error;
  }
}
