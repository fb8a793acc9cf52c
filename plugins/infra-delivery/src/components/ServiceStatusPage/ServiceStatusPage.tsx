import {
  Content,
  InfoCard,
  Progress,
  StructuredMetadataTable,
  WarningPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';
import Typography from '@material-ui/core/Typography';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';

/** Shows whether the infra-delivery service answers, and which API it serves. */
export const ServiceStatusPage = () => {
  const client = useApi(infraDeliveryApiRef);
  const { value, loading, error } = useAsync(async () => {
    const [health, document] = await Promise.all([
      client.call('getHealth', {}),
      client.call('getOpenApiDocument', {}),
    ]);
    const info = document.info as { title: string; version: string };
    const paths = document.paths as Record<string, Record<string, unknown>>;
    const operationCount = Object.values(paths).reduce(
      (sum, pathItem) => sum + Object.keys(pathItem).length,
      0,
    );
    return { health, info, operationCount };
  }, [client]);

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
        <InfoCard title="Service status">
          <StructuredMetadataTable
            metadata={{
              Status: value?.health.status === 'ok' ? 'Operational' : 'Down',
              API: value?.info.title,
              'API version': value?.info.version,
              Operations: value?.operationCount,
            }}
          />
        </InfoCard>
      )}
    </Content>
  );
};
