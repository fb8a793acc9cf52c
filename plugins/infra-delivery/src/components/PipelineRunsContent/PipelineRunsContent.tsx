import {
  MissingAnnotationEmptyState,
  useEntity,
} from '@backstage/plugin-catalog-react';
import {
  ANNOTATION_STACKS,
  idsFromAnnotation,
} from '@infra-delivery/plugin-infra-delivery-common';
import { PipelineRunsRoutes } from './PipelineRunsRoutes';
import { isStackEntity } from '../common/stackEntityRef';

/** Runs of the entity's stacks, and a page per run with its steps, plans and actions. */
export const PipelineRunsContent = () => {
  const { entity } = useEntity();
  const stackIds = idsFromAnnotation(
    entity.metadata.annotations?.[ANNOTATION_STACKS],
  );
  if (stackIds.length === 0) {
    return <MissingAnnotationEmptyState annotation={ANNOTATION_STACKS} />;
  }
  // Another set of stacks starts again from the newest page. A stack's own page names it.
  return (
    <PipelineRunsRoutes
      key={stackIds.join(',')}
      stackIds={stackIds}
      stackNamedByPage={isStackEntity(entity)}
    />
  );
};
