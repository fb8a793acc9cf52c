import { InfoCard } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { infraDeliveryApiRef } from '../../api';
import { drawerLink } from '../common/drawerLinks';
import { Loaded } from '../common/Loaded';
import { MaybeLink } from '../common/MaybeLink';
import { PluginTable } from '../common/PluginTable';
import { shortArns, taskDefinitionName } from '../common/shortArns';
import {
  CARD_TABLE_OPTIONS,
  contentWidths,
  NO_WRAP,
} from '../common/tableOptions';
import { Timestamp } from '../common/Timestamp';
import { useEntityTabLink } from '../common/useEntityTabLink';
import { ecsName } from '../common/useLiveDeployments';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { FAILED_LATELY_DAYS } from './FailedLatelyCard';
import { ecsServiceKey, useServiceEntities } from './useServiceEntities';
import { CARD_HEADING } from '../common/cardHeading';
import { ClampedCaption } from '../common/ClampedCaption';
import { CardBody } from '../common/CardBody';

/** The most failed deployments listed. */
const MAX_FAILED_DEPLOYMENTS = 10;

const failedAt = (deployment: Deployment) =>
  deployment.completedAt ?? deployment.updatedAt;

const serviceKeyOf = (deployment: Deployment) =>
  ecsServiceKey(deployment.data.clusterRef, deployment.data.serviceRef);

/**
 * The ECS deployments that failed in the last week, newest first, with why, each service
 * linked to the Deployments tab of the catalog entity that names it (where Roll back is) and
 * each deployment to its details there.
 */
export const FailedDeploymentsCard = () => {
  const client = useApi(infraDeliveryApiRef);
  const tabLink = useEntityTabLink();
  const deployments = useReloadableAsync(async () => {
    const page = await client.call('listDeployments', {
      query: { status: 'FAILED', limit: MAX_FAILED_DEPLOYMENTS },
    });
    const since = Date.now() - FAILED_LATELY_DAYS * 86_400_000;
    return page.data.filter(d => Date.parse(failedAt(d)) >= since);
  }, [client]);
  const entities = useServiceEntities(
    (deployments.value ?? []).map(serviceKeyOf),
  );
  /** The Deployments tab of the catalog entity that names the deployment's service. */
  const deploymentsTab = (deployment: Deployment) => {
    const entity = entities.value?.get(serviceKeyOf(deployment));
    return entity && tabLink(entity, 'deployments');
  };
  return (
    <InfoCard
      titleTypographyProps={CARD_HEADING}
      title="Deployments that failed lately"
      subheader={`ECS deployments that failed in the last ${FAILED_LATELY_DAYS} days`}
      noPadding
    >
      <Loaded state={deployments}>
        {list => (
          <PluginTable<Deployment>
            options={CARD_TABLE_OPTIONS}
            data={list}
            columns={contentWidths<Deployment>([
              {
                title: 'Deployment',
                render: deployment => (
                  <Box>
                    <Typography variant="body2">
                      <MaybeLink
                        to={drawerLink(
                          deploymentsTab(deployment),
                          'deployment',
                          deployment.id,
                        )}
                      >
                        {deployment.description}
                      </MaybeLink>
                    </Typography>
                    {deployment.data.deployedTaskDefinition && (
                      <Typography
                        variant="caption"
                        color="textSecondary"
                        component="div"
                      >
                        {taskDefinitionName(
                          deployment.data.deployedTaskDefinition,
                        )}
                      </Typography>
                    )}
                    {deployment.error && (
                      <ClampedCaption
                        text={shortArns(deployment.error.message)}
                      />
                    )}
                  </Box>
                ),
              },
              {
                title: 'Service',
                cellStyle: NO_WRAP,
                render: deployment => (
                  <MaybeLink to={deploymentsTab(deployment)}>
                    {ecsName(deployment.data.serviceRef)}
                  </MaybeLink>
                ),
              },
              {
                title: 'Failed',
                cellStyle: NO_WRAP,
                render: deployment => (
                  <Timestamp value={failedAt(deployment)} />
                ),
              },
            ])}
            emptyContent={
              <CardBody>
                <Typography>
                  No deployment failed in the last {FAILED_LATELY_DAYS} days.
                </Typography>
              </CardBody>
            }
          />
        )}
      </Loaded>
    </InfoCard>
  );
};
