import {
  Entity,
  getCompoundEntityRef,
  RELATION_DEPENDENCY_OF,
  RELATION_DEPENDS_ON,
} from '@backstage/catalog-model';
import {
  CatalogProcessor,
  CatalogProcessorEmit,
  processingResult,
} from '@backstage/plugin-catalog-node';
import {
  ANNOTATION_STACKS,
  idsFromAnnotation,
} from '@infra-delivery/plugin-infra-delivery-common';
import { stackEntityName } from './entityNames';

/**
 * A component that names stacks in its `infra-delivery.io/stacks` annotation depends on
 * them: the catalog graph then shows what infrastructure a service runs on.
 */
export class StackRelationsProcessor implements CatalogProcessor {
  getProcessorName(): string {
    return 'InfraDeliveryStackRelationsProcessor';
  }

  async postProcessEntity(
    entity: Entity,
    _location: unknown,
    emit: CatalogProcessorEmit,
  ): Promise<Entity> {
    if (entity.kind !== 'Component') {
      return entity;
    }
    const self = getCompoundEntityRef(entity);
    for (const stackId of idsFromAnnotation(
      entity.metadata.annotations?.[ANNOTATION_STACKS],
    )) {
      const stack = {
        kind: 'Resource',
        namespace: 'default',
        name: stackEntityName(stackId),
      };
      emit(
        processingResult.relation({
          source: self,
          type: RELATION_DEPENDS_ON,
          target: stack,
        }),
      );
      emit(
        processingResult.relation({
          source: stack,
          type: RELATION_DEPENDENCY_OF,
          target: self,
        }),
      );
    }
    return entity;
  }
}
