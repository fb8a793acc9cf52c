import { InfoCard } from '@backstage/core-components';
import {
  MissingAnnotationEmptyState,
  useEntity,
} from '@backstage/plugin-catalog-react';
import {
  ANNOTATION_ECS_SERVICE,
  ANNOTATION_STACKS,
  idsFromAnnotation,
} from '@infra-delivery/plugin-infra-delivery-common';
import { LatestDeploymentSummary } from './LatestDeploymentSummary';
import { StacksSummary } from './StacksSummary';
import { SummaryColumns } from './SummaryColumns';
import { CARD_HEADING } from '../common/cardHeading';
import { CardBody } from '../common/CardBody';

/**
 * The infrastructure of a catalog entity at a glance, for its Overview page: the newest run of
 * its stacks, each stack with its last run, and its service's newest deployment; each part
 * links to the tab with the rest. Parts whose annotation the entity lacks are left out.
 */
export const InfraDeliveryOverviewCard = () => {
  const { entity } = useEntity();
  const annotations = entity.metadata.annotations ?? {};
  const stackIds = idsFromAnnotation(annotations[ANNOTATION_STACKS]);
  const [clusterRef, serviceRef] = (
    annotations[ANNOTATION_ECS_SERVICE] ?? ''
  ).split('/');
  const hasService = Boolean(clusterRef && serviceRef);

  if (stackIds.length === 0 && !hasService) {
    return (
      <MissingAnnotationEmptyState
        annotation={[ANNOTATION_STACKS, ANNOTATION_ECS_SERVICE]}
      />
    );
  }
  return (
    <InfoCard
      titleTypographyProps={CARD_HEADING}
      title="Infrastructure"
      noPadding
    >
      <CardBody>
        <SummaryColumns>
          {stackIds.length > 0 && (
            <StacksSummary entity={entity} stackIds={stackIds} />
          )}
          {hasService && (
            <LatestDeploymentSummary
              entity={entity}
              clusterRef={clusterRef}
              serviceRef={serviceRef}
            />
          )}
        </SummaryColumns>
      </CardBody>
    </InfoCard>
  );
};
