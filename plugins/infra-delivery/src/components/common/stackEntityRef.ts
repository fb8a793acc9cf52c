import { CompoundEntityRef } from '@backstage/catalog-model';

/**
 * The catalog entity of a stack: the catalog module emits every stack as the Resource
 * `stack-<id>` (see its `stackEntityName`), carrying the plugin's annotations, so its Stacks
 * and Pipeline runs tabs show that stack.
 */
export function stackEntityRef(stackId: string): CompoundEntityRef {
  return { kind: 'resource', namespace: 'default', name: `stack-${stackId}` };
}
