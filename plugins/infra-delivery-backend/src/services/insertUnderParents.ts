import { isForeignKeyViolation } from '../database/dbErrors';

/**
 * Runs `insert`, whose parents `requireParents` checked before it. When a deletion removed one
 * of them between the check and the insert, the insert's foreign key refuses it (a 500 if left
 * alone): the check runs again and answers as it would have, a 404 naming what is gone.
 */
export async function insertUnderParents<T>(
  insert: () => Promise<T>,
  requireParents: () => Promise<unknown>,
): Promise<T> {
  try {
    return await insert();
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      await requireParents();
    }
    throw error;
  }
}
