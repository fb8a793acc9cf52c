import {
  Content,
  InfoCard,
  Link,
  Progress,
  StructuredMetadataTable,
  WarningPanel,
} from '@backstage/core-components';
import { discoveryApiRef, useApi } from '@backstage/frontend-plugin-api';
import {
  InfraDeliveryApiError,
  InfraDeliveryClient,
  RunStatus,
} from '@infra-delivery/plugin-infra-delivery-common';
import Typography from '@material-ui/core/Typography';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { MaybeLink } from '../common/MaybeLink';
import {
  runsTabPath,
  useMountedInfrastructurePath,
} from '../common/useInfrastructurePath';
import { runsFilteredBy } from '../PipelineRunsContent/runFilters';
import { useRunnersCardLink } from '../Runners/useRunnersCardLink';
import { CARD_HEADING } from '../common/cardHeading';

/**
 * How much work waits and who can do it: the organization's runners and its queued runs. A
 * figure the caller may not read (or that fails) is left out, not the page.
 */
async function workFigures(client: InfraDeliveryClient) {
  const count = (promise: Promise<{ meta: { totalCount?: number } }>) =>
    promise.then(
      page => page.meta.totalCount,
      () => undefined,
    );
  const [runners, online, queued, waiting] = await Promise.all([
    count(client.call('listRunners', { query: { limit: 1 } })),
    count(
      client.call('listRunners', { query: { limit: 1, status: 'ONLINE' } }),
    ),
    count(
      client.call('listPipelineRuns', {
        query: { limit: 1, status: ['QUEUED'] },
      }),
    ),
    count(
      client.call('listPipelineRuns', {
        query: { limit: 1, status: ['WAITING_FOR_APPROVAL'] },
      }),
    ),
  ]);
  return { runners, online, queued, waiting };
}

/** The work figures as rows of the status table, each linked to the list it counts. */
function useWorkRows(figures?: Awaited<ReturnType<typeof workFigures>>) {
  const runnersLink = useRunnersCardLink();
  const page = useMountedInfrastructurePath();
  const runs = (status: RunStatus) =>
    page ? runsFilteredBy(runsTabPath(page), [status]) : undefined;
  if (!figures) {
    return {};
  }
  const { runners, online, queued, waiting } = figures;
  return {
    ...(runners !== undefined && online !== undefined
      ? {
          Runners: (
            <MaybeLink to={runnersLink}>
              {runners === 0
                ? 'None connected: plans, applies and destroys wait for one'
                : `${online} online of ${runners}`}
            </MaybeLink>
          ),
        }
      : {}),
    ...(queued !== undefined
      ? { 'Queued runs': <MaybeLink to={runs('QUEUED')}>{queued}</MaybeLink> }
      : {}),
    ...(waiting !== undefined
      ? {
          'Waiting for approval': (
            <MaybeLink to={runs('WAITING_FOR_APPROVAL')}>{waiting}</MaybeLink>
          ),
        }
      : {}),
  };
}

/**
 * Whether the infra-delivery service answers, which API it serves (and where its OpenAPI
 * document is, for automation), and whether work flows: runners online and runs waiting.
 */
export const ServiceStatusPage = () => {
  const client = useApi(infraDeliveryApiRef);
  const discoveryApi = useApi(discoveryApiRef);
  const { value, loading, error } = useAsync(async () => {
    const [health, document, figures, baseUrl] = await Promise.all([
      client.call('getHealth', {}),
      client.call('getOpenApiDocument', {}),
      workFigures(client),
      discoveryApi.getBaseUrl('infra-delivery'),
    ]);
    const info = document.info as { title: string; version: string };
    const paths = document.paths as Record<string, Record<string, unknown>>;
    const operationCount = Object.values(paths).reduce(
      (sum, pathItem) => sum + Object.keys(pathItem).length,
      0,
    );
    return { health, info, operationCount, figures, baseUrl };
  }, [client, discoveryApi]);
  const workRows = useWorkRows(value?.figures);

  if (loading) {
    return <Progress />;
  }

  return (
    <Content>
      {error ? (
        <WarningPanel
          severity="error"
          title="The service does not answer"
          defaultExpanded
        >
          <Typography>{error.message}</Typography>
          {error instanceof InfraDeliveryApiError && error.body.requestId && (
            <Typography variant="caption">
              Request id: {error.body.requestId}
            </Typography>
          )}
        </WarningPanel>
      ) : (
        <InfoCard titleTypographyProps={CARD_HEADING} title="Service status">
          <StructuredMetadataTable
            // The titles as written (sentence case), not title-cased.
            options={{ titleFormat: (key: string) => key }}
            // Text as elements, like the rows with links: Backstage sets a plain string in a
            // paragraph of its own, a few pixels below its title.
            metadata={{
              Status: (
                <>{value?.health.status === 'ok' ? 'Operational' : 'Down'}</>
              ),
              ...workRows,
              API: <>{value?.info.title}</>,
              'API version': <>{value?.info.version}</>,
              Operations: value && (
                <>
                  {value.operationCount} (
                  <Link to={`${value.baseUrl}/openapi.json`}>
                    OpenAPI document
                  </Link>
                  )
                </>
              ),
            }}
          />
        </InfoCard>
      )}
    </Content>
  );
};
