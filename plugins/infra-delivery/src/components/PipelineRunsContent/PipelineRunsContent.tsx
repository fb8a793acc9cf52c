import {
  MissingAnnotationEmptyState,
  useEntity,
} from '@backstage/plugin-catalog-react';
import {
  ANNOTATION_STACKS,
  idsFromAnnotation,
} from '@internal/plugin-infra-delivery-common';
import { PipelineRunsView } from './PipelineRunsView';

/** Runs of the entity's stacks, with their steps, plans and actions. */
export const PipelineRunsContent = () => {
  const { entity } = useEntity();
  const stackIds = idsFromAnnotation(
    entity.metadata.annotations?.[ANNOTATION_STACKS],
  );
  if (stackIds.length === 0) {
    return <MissingAnnotationEmptyState annotation={ANNOTATION_STACKS} />;
  }
  // Another set of stacks starts again from the newest page.
  return <PipelineRunsView key={stackIds.join(',')} stackIds={stackIds} />;
};
