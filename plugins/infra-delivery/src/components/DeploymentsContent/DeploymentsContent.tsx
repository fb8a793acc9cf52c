import {
  MissingAnnotationEmptyState,
  useEntity,
} from '@backstage/plugin-catalog-react';
import { ANNOTATION_ECS_SERVICE } from '@infra-delivery/plugin-infra-delivery-common';
import { DeploymentsView } from './DeploymentsView';

/**
 * Deployments of the entity's ECS service (`infra-delivery.io/ecs-service`); its other
 * annotations say where a first deployment goes.
 */
export const DeploymentsContent = () => {
  const { entity } = useEntity();
  const [clusterRef, serviceRef] = (
    entity.metadata.annotations?.[ANNOTATION_ECS_SERVICE] ?? ''
  ).split('/');
  if (!clusterRef || !serviceRef) {
    return <MissingAnnotationEmptyState annotation={ANNOTATION_ECS_SERVICE} />;
  }
  return (
    <DeploymentsView
      clusterRef={clusterRef}
      serviceRef={serviceRef}
      annotations={entity.metadata.annotations ?? {}}
    />
  );
};
