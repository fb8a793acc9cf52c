import { Progress, Table, TableColumn } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  PipelineRun,
  RUN_STATUSES,
  RunStatus as RunStatusValue,
} from '@internal/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Chip from '@material-ui/core/Chip';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import { useCallback, useState } from 'react';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { infraDeliveryApiRef } from '../../api';
import { ErrorPanel } from '../common/ErrorPanel';
import { RunStatus } from '../common/RunStatus';
import { useLiveRuns } from '../common/useLiveRuns';
import { RunDetails } from './RunDetails';

export const PipelineRunsView = ({ stackIds }: { stackIds: string[] }) => {
  const client = useApi(infraDeliveryApiRef);
  const [statuses, setStatuses] = useState<RunStatusValue[]>([]);
  const [selectedId, setSelectedId] = useState<string>();

  const { value, loading, error, retry } = useAsyncRetry(
    () =>
      client.call('listPipelineRuns', {
        query: {
          attachedEntityId: stackIds,
          ...(statuses.length ? { status: statuses } : {}),
          limit: 50,
        },
      }),
    [client, stackIds.join(','), statuses.join(',')],
  );
  const refresh = useCallback(() => retry(), [retry]);
  useLiveRuns(refresh);

  const toggle = (status: RunStatusValue) =>
    setStatuses(current =>
      current.includes(status)
        ? current.filter(s => s !== status)
        : [...current, status],
    );

  const columns: TableColumn<PipelineRun>[] = [
    {
      title: 'Run',
      render: run => (
        <Link component="button" onClick={() => setSelectedId(run.id)}>
          {run.description ?? run.id}
        </Link>
      ),
    },
    { title: 'Status', render: run => <RunStatus status={run.status} /> },
    {
      title: 'Why it waits',
      render: run =>
        run.queueState?.preflightBlockedByAdmissionCondition &&
        run.queueState.blockingRunId ? (
          <Typography variant="body2">
            Held: stack {run.queueState.blockingEntityId} is busy with run{' '}
            <Link
              component="button"
              onClick={() => setSelectedId(run.queueState!.blockingRunId)}
            >
              {run.queueState.blockingRunId}
            </Link>
          </Typography>
        ) : (
          run.queueReason ?? ''
        ),
    },
    { title: 'Attempt', field: 'attemptEpoch', type: 'numeric' },
    { title: 'Created', field: 'createdAt' },
  ];

  return (
    <Box>
      <Box display="flex" flexWrap="wrap" style={{ gap: 8 }} marginBottom={2}>
        {RUN_STATUSES.map(status => (
          <Chip
            key={status}
            label={status}
            clickable
            color={statuses.includes(status) ? 'primary' : 'default'}
            onClick={() => toggle(status)}
          />
        ))}
      </Box>
      {error && <ErrorPanel error={error} />}
      {loading && !value && <Progress />}
      {value && (
        <Table
          title={`Pipeline runs (${value.meta.totalCount})`}
          options={{ paging: false, search: false, padding: 'dense' }}
          columns={columns}
          data={value.data}
          emptyContent={
            <Box padding={2}>
              <Typography>No runs match.</Typography>
            </Box>
          }
        />
      )}
      {selectedId && (
        <RunDetails
          key={selectedId}
          runId={selectedId}
          onChanged={refresh}
          onClose={() => setSelectedId(undefined)}
        />
      )}
    </Box>
  );
};
