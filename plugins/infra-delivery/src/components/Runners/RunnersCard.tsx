import { TableColumn } from '@backstage/core-components';
import { Runner } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Chip from '@material-ui/core/Chip';
import Typography from '@material-ui/core/Typography';
import { CARD_TABLE_OPTIONS, contentWidths } from '../common/tableOptions';
import { MaybeLink } from '../common/MaybeLink';
import { useRunPagePath } from '../common/useInfrastructurePath';
import { useIsOrganizationAdmin } from '../common/useIsOrganizationAdmin';
import { useLiveRuns } from '../common/useLiveRuns';
import { useLivePolling } from '../common/useLivePolling';
import { LIVE_POLL_MS } from '../common/livePolling';
import { LoadNotes } from '../common/LoadNotes';
import { DataAsOf } from '../common/DataAsOf';
import { ConnectRunnerButton } from './ConnectRunnerButton';
import { Timestamp } from '../common/Timestamp';
import { RunnerStatusLabel } from './RunnerStatusLabel';
import { useRunnerPages } from './useRunnerPages';
import { useRunTitles } from './useRunTitles';
import { useRunnerSilent } from './useRunnerSilent';
import { LeaseText } from '../PipelineRunsContent/StepRunner';
import { LoadingTable } from '../common/LoadingTable';
import { TableCard } from '../common/TableCard';
import { CardBody } from '../common/CardBody';

/**
 * How often the list is read again while the page is in sight and no runner is ONLINE, so that
 * runners coming online show. While one is ONLINE, at the live speed (`LIVE_POLL_MS`), as the
 * run page reads: working on a step, it is silent after three of its 5 s heartbeats unheard,
 * and a lease read 15 s before read a healthy runner "Silent" for a moment; free, it is silent
 * five seconds after its held claim dropped, which the run page said ten seconds before the
 * card, read every 15 s, said "Silent".
 */
export const RUNNERS_REFRESH_MS = 15_000;

/**
 * The runner as people call it, the name of the service account it signs in with ("Build
 * hosts"), else its id; and the rest on one line under it: "build-host-1-4242 on build-host-1 ·
 * version 0.3.0". Several runners of one account are told apart by that line; processes started
 * with the same runner id (`sharesId`), which may run on one host, by their process as well
 * ("process 3f2a9c1e", the start of the id the runner made up when it started).
 */
export function runnerName(
  runner: Runner,
  sharesId = false,
): {
  name: string;
  details?: string;
} {
  const parts = [
    runner.serviceAccountName ? runner.runnerId : undefined,
    runner.hostname && `on ${runner.hostname}`,
    sharesId && runner.instanceId && `process ${runner.instanceId.slice(0, 8)}`,
    runner.version && `version ${runner.version}`,
  ];
  return {
    name: runner.serviceAccountName ?? runner.runnerId,
    details: parts.filter(Boolean).join(' · ') || undefined,
  };
}

/**
 * The page's runners as people look for them: online ones first, in the order they came online
 * (then by process), then the most recently seen. The service pages them in a fixed order (by
 * id), which put a runner that left last week above the one working now. Online ones by their
 * last sighting swapped rows every ten seconds as their sightings were written (seen in session
 * 42 with two processes of the local runner, one busy): the busy one jumped between the rows.
 */
export function onlineFirst(runners: Runner[]): Runner[] {
  return [...runners].sort((a, b) => {
    const online =
      Number(b.status === 'ONLINE') - Number(a.status === 'ONLINE');
    if (online !== 0) return online;
    return a.status === 'ONLINE'
      ? a.firstSeenAt.localeCompare(b.firstSeenAt) ||
          `${a.runnerId} ${a.instanceId ?? ''}`.localeCompare(
            `${b.runnerId} ${b.instanceId ?? ''}`,
          )
      : b.lastSeenAt.localeCompare(a.lastSeenAt);
  });
}

/**
 * A runner, with the name of the run it works on once read, and whether another process listed
 * has the same runner id.
 */
type RunnerRow = Runner & { currentRunTitle?: string; sharesId?: boolean };

/** The runner ids that more than one listed process has. */
function sharedIds(runners: Runner[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const runner of runners) {
    if (seen.has(runner.runnerId)) shared.add(runner.runnerId);
    seen.add(runner.runnerId);
  }
  return shared;
}

/**
 * The step a runner works on, linked to its run; "Idle" without one. An offline runner that
 * held a step stopped reporting during it (the step went to the next runner when its lease ran
 * out): it does not work on it any more. An ONLINE runner that has most likely stopped
 * (`useRunnerSilent`) says so: idle, that it no longer asks for work; working, how long it has
 * not reported.
 */
/**
 * Why the service turned a runner OFFLINE when it can no longer report: its key was revoked or
 * its service account deleted ("API key revoked by guest").
 */
function revokedText(runner: Runner): string | undefined {
  const by = runner.offlineBy ? ` by ${runner.offlineBy}` : '';
  switch (runner.offlineCause) {
    case 'KEY_REVOKED':
      return `API key revoked${by}`;
    case 'ACCOUNT_DELETED':
      return `Service account deleted${by}`;
    default:
      return undefined;
  }
}

/**
 * When the service last heard from a runner: its last heartbeat or poll (`lastSeenAt`), or,
 * working on a step, its last log lines if later (the lease's `lastHeardAt`). A runner busy
 * streaming a long apply's logs was "last seen 40 seconds ago" beside "last heard from 2s ago".
 */
export function lastSeenOf(runner: Runner): string {
  const heard = runner.currentStepLease?.lastHeardAt;
  return heard && Date.parse(heard) > Date.parse(runner.lastSeenAt)
    ? heard
    : runner.lastSeenAt;
}

const WorkingOn = ({ runner }: { runner: RunnerRow }) => {
  const runPagePath = useRunPagePath();
  const silent = useRunnerSilent(runner);
  const revoked = revokedText(runner);
  if (!runner.currentStepExecutionId) {
    if (revoked) {
      return (
        <Typography variant="body2" color="textSecondary">
          {revoked}
        </Typography>
      );
    }
    return (
      <Typography variant="body2" color="textSecondary">
        {/* How long shows under Last seen. */}
        {silent
          ? 'Idle, but no longer asks for work: it may have stopped (killed, or its host lost)'
          : 'Idle'}
      </Typography>
    );
  }
  const runId = runner.currentPipelineRunId;
  // The run's name: the step's name alone ("Plan") did not say which run.
  const runTitle = runner.currentRunTitle;
  const stepName = runner.currentStepName ?? 'A step';
  const step = (
    <MaybeLink to={runId ? runPagePath(runId) : undefined}>
      {runTitle ? `${stepName} of ${runTitle}` : stepName}
    </MaybeLink>
  );
  if (runner.status === 'OFFLINE') {
    return (
      <Typography variant="body2" color="textSecondary">
        {revoked ? `${revoked} during ` : 'Stopped reporting during '}
        {step}
      </Typography>
    );
  }
  // Half its lease without a heartbeat: "build-host-1 has sent no heartbeat for 35s". Else
  // nothing more: when it was last heard from shows under Last seen (`lastSeenOf`), which
  // counts its log lines, so that a busy runner is told from a dead one.
  return (
    <Box display="flex" flexDirection="column">
      {step}
      {silent && runner.currentStepLease && (
        <Typography variant="caption">
          <LeaseText lease={runner.currentStepLease} />
        </Typography>
      )}
    </Box>
  );
};

// Five columns: the runner's id, host and version go under its name, so that the table fits
// the Organization tab on a 1,024 px screen.
const columns: TableColumn<RunnerRow>[] = contentWidths<RunnerRow>([
  {
    title: 'Status',
    render: runner => <RunnerStatusLabel runner={runner} />,
  },
  {
    title: 'Runner',
    render: runner => {
      const { name, details } = runnerName(runner, runner.sharesId);
      return (
        <Box minWidth="10em">
          <Typography variant="body2">{name}</Typography>
          {details && (
            <Typography variant="caption" color="textSecondary">
              {details}
            </Typography>
          )}
        </Box>
      );
    },
  },
  {
    title: 'Labels',
    render: runner => (
      <Box display="flex" flexWrap="wrap" style={{ gap: 4 }}>
        {runner.labels.map(label => (
          <Chip key={label} label={label} size="small" />
        ))}
      </Box>
    ),
  },
  {
    title: 'Last seen',
    render: runner => <Timestamp value={lastSeenOf(runner)} />,
  },
  {
    title: 'Working on',
    render: runner => <WorkingOn runner={runner} />,
  },
]);

/** The runners that executed or wait for IaC steps of the organization, as last seen. */
export const RunnersCard = ({
  onRunnerConnected,
}: {
  /** After Connect a runner created a service account and its key. */
  onRunnerConnected?: () => void;
} = {}) => {
  const isAdmin = useIsOrganizationAdmin();
  const runners = useRunnerPages();
  const { value: page, retry } = runners;
  useLiveRuns(retry);
  useLivePolling(
    retry,
    page?.data.some(runner => runner.status === 'ONLINE')
      ? LIVE_POLL_MS
      : RUNNERS_REFRESH_MS,
  );
  const connected = () => {
    runners.firstPage();
    retry();
    onRunnerConnected?.();
  };
  const shared = sharedIds(page?.data ?? []);
  const runTitles = useRunTitles(
    (page?.data ?? []).flatMap(runner => runner.currentPipelineRunId ?? []),
  );

  return (
    // Runners' silence is judged as of the list's last answer from the service.
    <DataAsOf state={runners}>
      <TableCard
        title="Runners"
        subheader="Runners execute the plan, apply and destroy steps of pipeline runs."
        action={
          isAdmin && page?.data.length ? (
            <ConnectRunnerButton onConnected={connected} />
          ) : undefined
        }
        notes={<LoadNotes state={runners} />}
        footer={
          page &&
          (runners.hasPrevious || runners.hasNext) && (
            <Box
              display="flex"
              alignItems="center"
              justifyContent="flex-end"
              style={{ gap: 8 }}
            >
              <Typography variant="body2">
                Runners {runners.first}–{runners.first + page.data.length - 1}{' '}
                of {page.meta.totalCount}
              </Typography>
              <Button
                size="small"
                disabled={!runners.hasPrevious}
                onClick={runners.previous}
              >
                Previous
              </Button>
              <Button
                size="small"
                disabled={!runners.hasNext}
                onClick={runners.next}
              >
                Next
              </Button>
            </Box>
          )
        }
      >
        <LoadingTable
          options={CARD_TABLE_OPTIONS}
          loading={runners.loading && !page}
          loadingLabel="Loading runners"
          columns={columns}
          data={onlineFirst(page?.data ?? []).map(runner => ({
            ...runner,
            sharesId: shared.has(runner.runnerId),
            currentRunTitle:
              runner.currentPipelineRunId &&
              runTitles?.get(runner.currentPipelineRunId),
          }))}
          emptyContent={
            <CardBody>
              <Typography gutterBottom>
                No runner has connected yet: runs with plan, apply or destroy
                steps wait until one does.
              </Typography>
              {isAdmin && <ConnectRunnerButton onConnected={connected} />}
              {isAdmin === false && (
                <Typography variant="body2" color="textSecondary">
                  An organization admin can connect one.
                </Typography>
              )}
            </CardBody>
          }
        />
      </TableCard>
    </DataAsOf>
  );
};
