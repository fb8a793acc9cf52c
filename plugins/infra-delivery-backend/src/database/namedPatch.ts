import { nowTimestamp } from './timestamps';

/** A change to the name and description every named resource has. */
export interface NamedResourcePatch {
  name?: string;
  description?: string;
}

/** The columns an update writes for a named-resource patch; absent fields stay as they are. */
export function namedPatchColumns(patch: NamedResourcePatch) {
  return {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.description !== undefined
      ? { description: patch.description }
      : {}),
    updated_at: nowTimestamp(),
  };
}
