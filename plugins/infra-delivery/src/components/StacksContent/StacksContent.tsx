import {
  MissingAnnotationEmptyState,
  useEntity,
} from '@backstage/plugin-catalog-react';
import {
  ANNOTATION_STACKS,
  idsFromAnnotation,
} from '@infra-delivery/plugin-infra-delivery-common';
import { StacksTable } from './StacksTable';

/** The entity's stacks, as its `infra-delivery.io/stacks` annotation names them. */
export const StacksContent = () => {
  const { entity } = useEntity();
  const stackIds = idsFromAnnotation(
    entity.metadata.annotations?.[ANNOTATION_STACKS],
  );
  if (stackIds.length === 0) {
    return <MissingAnnotationEmptyState annotation={ANNOTATION_STACKS} />;
  }
  return <StacksTable stackIds={stackIds} />;
};
