import { Entity } from '@backstage/catalog-model';
import { useApi } from '@backstage/frontend-plugin-api';
import Typography from '@material-ui/core/Typography';
import { infraDeliveryApiRef } from '../../api';
import { DeploymentStatus } from '../DeploymentsContent/DeploymentStatus';
import { drawerLink } from '../common/drawerLinks';
import { taskDefinitionName } from '../common/shortArns';
import { Loaded } from '../common/Loaded';
import { MaybeLink } from '../common/MaybeLink';
import { Timestamp } from '../common/Timestamp';
import { useEntityTabLink } from '../common/useEntityTabLink';
import { useLiveDeployments } from '../common/useLiveDeployments';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { useLivePolling } from '../common/useLivePolling';
import { SummaryLine, SummaryLinePlaceholder } from './SummaryLine';
import { SummarySection } from './SummarySection';

/**
 * The newest deployment of the entity's ECS service: which release runs, or is rolling out,
 * and whether it went well.
 */
export const LatestDeploymentSummary = ({
  entity,
  clusterRef,
  serviceRef,
}: {
  entity: Entity;
  clusterRef: string;
  serviceRef: string;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const tabLink = useEntityTabLink();
  const latest = useReloadableAsync(
    async () =>
      (
        await client.call('listDeployments', {
          query: { clusterRef, serviceRef, limit: 1 },
        })
      ).data,
    [client, clusterRef, serviceRef],
  );
  useLiveDeployments({ clusterRef, serviceRef }, latest.retry);
  // A deployment started elsewhere, or a service gone quiet, shows without a reload.
  useLivePolling(latest.retry);
  return (
    <SummarySection
      title="Latest deployment"
      link={tabLink(entity, 'deployments')}
      linkText="All deployments"
    >
      <Loaded state={latest} placeholder={<SummaryLinePlaceholder />}>
        {([deployment]) =>
          deployment ? (
            <SummaryLine
              status={<DeploymentStatus deployment={deployment} />}
              detail={
                <>
                  {deployment.data.deployedTaskDefinition
                    ? `${taskDefinitionName(
                        deployment.data.deployedTaskDefinition,
                      )} · `
                    : ''}
                  <Timestamp
                    value={deployment.startedAt ?? deployment.createdAt}
                  />
                </>
              }
            >
              <MaybeLink
                to={drawerLink(
                  tabLink(entity, 'deployments'),
                  'deployment',
                  deployment.id,
                )}
              >
                {deployment.description}
              </MaybeLink>
            </SummaryLine>
          ) : (
            <Typography variant="body2">
              No deployment of {serviceRef} yet.
            </Typography>
          )
        }
      </Loaded>
    </SummarySection>
  );
};
