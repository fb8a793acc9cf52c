import { CompoundEntityRef, Entity } from '@backstage/catalog-model';
import { STACK_ENTITY_TYPE } from '@infra-delivery/plugin-infra-delivery-common';

/**
 * The catalog entity of a stack: the catalog module emits every stack as the Resource
 * `stack-<id>` (see its `stackEntityName`), carrying the plugin's annotations, so its Stacks
 * and Pipeline runs tabs show that stack.
 */
export function stackEntityRef(stackId: string): CompoundEntityRef {
  return { kind: 'resource', namespace: 'default', name: `stack-${stackId}` };
}

/**
 * Whether the entity is a stack's own (a Resource of type `iac-stack`, as the catalog module
 * emits it), whose views show that one stack in full rather than in a list naming only itself.
 */
export function isStackEntity(entity: Entity): boolean {
  return (
    entity.kind.toLowerCase() === 'resource' &&
    entity.spec?.type === STACK_ENTITY_TYPE
  );
}
