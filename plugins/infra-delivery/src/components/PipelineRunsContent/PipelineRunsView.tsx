import { Link, Progress } from '@backstage/core-components';
import { PluginTable } from '../common/PluginTable';
import { contentWidths, TABLE_OPTIONS } from '../common/tableOptions';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  InfraDeliveryApiError,
  PipelineRun,
  RUN_STATUSES,
  RunTriggerSource,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import { makeStyles } from '@material-ui/core/styles';
import Button from '@material-ui/core/Button';
import Chip from '@material-ui/core/Chip';
import Typography from '@material-ui/core/Typography';
import { RunTrigger } from '../common/RunTrigger';
import { ReactNode, useEffect, useLayoutEffect, useReducer } from 'react';
import { useLocation } from 'react-router-dom';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { StartedAndTook } from '../common/StartedAndTook';
import { ErrorPanel } from '../common/ErrorPanel';
import { PrincipalName } from '../common/PersonName';
import { StackLink } from '../common/StackLink';
import { RunNames, useRunNames } from '../common/useRunNames';
import {
  noRunnerWillClaim,
  RunState,
  STATUS_LABELS,
} from '../common/RunStatus';
import { isActiveRun, LIVE_POLL_MS } from '../common/livePolling';
import { useLiveRuns } from '../common/useLiveRuns';
import { useLivePolling } from '../common/useLivePolling';
import { DataAsOf } from '../common/DataAsOf';
import { useLiveLoad } from '../common/useLiveLoad';
import { NoAnswerNotice } from '../common/NoAnswerNotice';
import { ReloadFailedNotice } from '../common/ReloadFailedNotice';
import { WaitingForRunnerNotice } from '../Runners/WaitingForRunnerNotice';
import { markRunsLoaded, measureRunsRender } from './renderTiming';
import { RunStateNote } from './RunStateNote';
import { BlockingRun } from './WhyItWaits';
import { runsListState, useRunFilters, useRunsPages } from './runFilters';
import { attemptStartedAt } from './attemptStartedAt';
import { Reloading } from '../common/Reloading';
import { narrowerThan, useContainerWidth } from '../common/useContainerWidth';
import { CardBody } from '../common/CardBody';

/** What started a run that no person or service account started. */
const STARTED_ON_ITS_OWN: Partial<Record<RunTriggerSource, string>> = {
  DRIFT_SCHEDULE: 'Drift schedule',
  GIT_PUSH: 'GitHub push',
  PULL_REQUEST: 'GitHub pull request',
};

/**
 * Who or what started a run that no commit did: "by ada@example.com", "Drift schedule"; nothing
 * for a run started through the API by a caller no longer known.
 */
const StartedBy = ({ run, names }: { run: PipelineRun; names: RunNames }) => {
  if (run.createdById) {
    return (
      <>
        by{' '}
        <PrincipalName
          id={run.createdById}
          name={names.personName(run.createdById)}
          loaded={names.peopleLoaded}
          inText
        />
      </>
    );
  }
  const source = run.triggerSource && STARTED_ON_ITS_OWN[run.triggerSource];
  return source ? <>{source}</> : null;
};

/** The service's answer to a cursor it does not take. */
const INVALID_CURSOR = 'InfraDelivery:Request:INVALID_CURSOR';

/** The room under which the table folds into three columns (see its columns). */
const COMPACT_BELOW = 600;

/** Runs per page: a page renders in a few milliseconds however many runs the stacks have. */
export const RUNS_PAGE_SIZE = 50;

/**
 * One filter of the list: its name, then its chips, which wrap under the first chip rather
 * than under the name. The name sits on the first line's baseline.
 */
const FilterGroup = ({
  label,
  children,
}: {
  label: string;
  children: ReactNode;
}) => (
  <Box
    display="flex"
    alignItems="baseline"
    style={{ gap: 8 }}
    role="group"
    aria-label={label}
  >
    {/* In the text's own colour: the secondary grey is too faint on the page's background. */}
    <Typography variant="body2">{label}</Typography>
    <Box display="flex" flexWrap="wrap" style={{ gap: 8 }}>
      {children}
    </Box>
  </Box>
);

const useFilterChipStyles = makeStyles(theme => ({
  // Keyboard focus shows as a ring: the chip's own focus tint was hardly darker than its grey.
  // No margin of its own: Backstage's theme gives chips 8 px below and right, which set the
  // group's name 4 px lower than the chips it names; the group's gap spaces them.
  chip: {
    margin: 0,
    '&.Mui-focusVisible, &:focus-visible': {
      outline: `2px solid ${theme.palette.primary.main}`,
      outlineOffset: 2,
    },
  },
}));

/** A filter that is on or off: a chip, pressed while its filter applies. */
const FilterChip = ({
  label,
  pressed,
  onClick,
}: {
  label: string;
  pressed: boolean;
  onClick: () => void;
}) => (
  <Chip
    className={useFilterChipStyles().chip}
    label={label}
    clickable
    aria-pressed={pressed}
    color={pressed ? 'primary' : 'default'}
    onClick={onClick}
  />
);

/**
 * The runs of some stacks (all of the organization's when `stackIds` is empty), newest first,
 * filtered by status and paged; each links to its own page at `runPath(run.id)`.
 */
export const PipelineRunsView = ({
  stackIds,
  runPath,
  stackNamedByPage = false,
}: {
  stackIds: string[];
  runPath: (runId: string) => string;
  /** The page is the one stack's own: a Stack column would repeat its name on every row. */
  stackNamedByPage?: boolean;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const names = useRunNames(stackIds);
  const [measured, tableWidth] = useContainerWidth<HTMLDivElement>();
  const { search } = useLocation();
  // The statuses shown (all when none), and drift checks only (plan-only runs that look for
  // drift) or every run: in the query string, so that a filtered list can be linked to.
  const {
    statuses,
    driftChecksOnly,
    toggleStatus,
    toggleDriftChecks,
    clearFilters,
  } = useRunFilters();
  const filtersShown = [
    ...statuses.map(status => STATUS_LABELS[status]),
    ...(driftChecksOnly ? ['Drift checks'] : []),
  ];
  // The cursors of the pages walked to: the last one is the page shown (none: the newest).
  const [pages, setPages] = useRunsPages();
  const cursor = pages[pages.length - 1];
  // Each refresh is a new load, even while one is under way (whose answer is then dropped):
  // an announcement during a load may be about a change that load does not see yet.
  const [version, refresh] = useReducer((v: number) => v + 1, 0);

  // Which list is asked for: a refresh asks for the same one again, a filter or page another.
  const list = JSON.stringify([stackIds, statuses, driftChecksOnly, cursor]);

  const load = useAsync(async () => {
    const page = await client.call('listPipelineRuns', {
      query: {
        ...(stackIds.length ? { attachedEntityId: stackIds } : {}),
        ...(statuses.length ? { status: statuses } : {}),
        ...(driftChecksOnly ? { kind: ['DRIFT_CHECK' as const] } : {}),
        limit: RUNS_PAGE_SIZE,
        ...(cursor ? { cursor } : {}),
      },
    });
    markRunsLoaded();
    return { page, list, pagesBefore: pages.length };
  }, [
    client,
    stackIds.join(','),
    statuses.join(','),
    driftChecksOnly,
    cursor,
    version,
  ]);
  const {
    value: shown,
    loading,
    error,
    silentSince,
    reloadFailed,
  } = useLiveLoad(load, refresh);
  const value = shown?.page;
  // A page whose cursor the service no longer takes (signed with an earlier key, after the
  // backend restarted, say) leads to the newest runs instead of an error. Asked of the load
  // itself: a refused reload of the page shown keeps its runs, and would hide the refusal.
  const cursorRefused =
    pages.length > 0 &&
    load.error instanceof InfraDeliveryApiError &&
    load.error.body.code === INVALID_CURSOR;
  useEffect(() => {
    if (cursorRefused) setPages([]);
  }, [cursorRefused, setPages]);
  // Another list loads in place of the one shown (not a refresh of it): the list shown stays,
  // under a progress bar, until the new one replaces it.
  const switching = loading && shown !== undefined && shown.list !== list;
  useLiveRuns(refresh);
  useLivePolling(
    refresh,
    value?.data.some(run => isActiveRun(run.status)) ? LIVE_POLL_MS : undefined,
  );
  useLayoutEffect(() => {
    if (value) measureRunsRender();
  }, [value]);

  // The run holding a queued run's stack, when it is on this page (it usually is: the stack's
  // current run).
  const blockerOf = (run: PipelineRun): BlockingRun | undefined => {
    const blocker = value?.data.find(
      other => other.id === run.queueState?.blockingRunId,
    );
    return (
      blocker && {
        // The run ahead in the queue of the row's stack, which the row names.
        title: names.runTitleBesideStack(blocker),
        status: blocker.status,
      }
    );
  };

  // Four columns, so that the table fits an entity's tab on a 1,024 px screen: why a run waits
  // goes under its status, who started it under its name, and how long it took under when it
  // started. Under 600 px of room (a 768 px window beside the sidebar) when it was triggered
  // goes under its status too: four columns ran past the card's edge there, Triggered cut off.
  const compact = narrowerThan(tableWidth, COMPACT_BELOW);
  const triggered = (run: PipelineRun) => (
    <StartedAndTook
      at={run.createdAt}
      startedAt={attemptStartedAt(run)}
      completedAt={run.completedAt}
    />
  );
  const columns = contentWidths<PipelineRun>([
    {
      title: 'Status',
      render: run => (
        <Box maxWidth="12em">
          <RunState run={run} />
          <Typography variant="caption" color="textSecondary" component="div">
            <RunStateNote
              run={run}
              runPath={runPath}
              blocker={blockerOf(run)}
            />
          </Typography>
          {compact && (
            <Typography variant="body2" component="div">
              {triggered(run)}
            </Typography>
          )}
        </Box>
      ),
    },
    {
      title: 'Run',
      // A run's name and its commit are what people read: at least this wide, so that a
      // pull request's plan is not wrapped over six lines beside a wide status. Who or what
      // started it goes under its name: a column of its own pushed Started out of an
      // entity's tab on a 1,024 px screen. 10.5em: at 11 the Infrastructure page's runs table
      // was 5 px wider than its card in a 900 px window.
      render: run => (
        <Box minWidth="10.5em">
          <Link to={runPath(run.id)} state={runsListState(search, pages)}>
            {/* Its stack has a column of its own, or the page is the stack's: "Destroy", not
                "Destroy · Network". */}
            {names.runTitleBesideStack(run)}
          </Link>
          <Typography variant="body2" color="textSecondary">
            {run.gitSource ? (
              <RunTrigger run={run} />
            ) : (
              <StartedBy run={run} names={names} />
            )}
          </Typography>
        </Box>
      ),
    },
    ...(stackNamedByPage
      ? []
      : [
          {
            title: 'Stack',
            // A stack's name reads as one unit: never broken inside a word.
            cellStyle: { whiteSpace: 'nowrap' } as const,
            render: (run: PipelineRun) => {
              const name = names.stackName(run.attachedEntityId);
              return name && run.attachedEntityId ? (
                <StackLink stackId={run.attachedEntityId} name={name} />
              ) : (
                '—'
              );
            },
          },
        ]),
    ...(compact
      ? []
      : [
          {
            // When the run was triggered, as the list is ordered: a run that waited for its
            // stack started after newer runs, and "Started" read 5, 8, 13, 13, 8 minutes ago
            // down the list.
            title: 'Triggered',
            // "4 minutes ago" reads as one phrase.
            cellStyle: { whiteSpace: 'nowrap' } as const,
            render: triggered,
          },
        ]),
  ]);

  const first = (shown?.pagesBefore ?? 0) * RUNS_PAGE_SIZE + 1;
  const waitingForRunner = value?.data.find(noRunnerWillClaim);

  // A running run's runner judged as of the list's last answer while a reload goes unanswered
  // (`DataAsOf`), as on the run page.
  return (
    <DataAsOf state={{ loading, silentSince, reloadFailed }}>
      <div ref={measured}>
        {/* Two filters, each named and kept together with its chips: the run's status (any of
          those pressed) and its kind. */}
        <Box
          display="flex"
          flexWrap="wrap"
          alignItems="center"
          style={{ gap: 8, columnGap: 24 }}
          marginBottom={2}
        >
          <FilterGroup label="Status">
            {RUN_STATUSES.map(status => (
              <FilterChip
                key={status}
                label={STATUS_LABELS[status]}
                pressed={statuses.includes(status)}
                onClick={() => toggleStatus(status)}
              />
            ))}
          </FilterGroup>
          <FilterGroup label="Kind">
            <FilterChip
              label="Drift checks"
              pressed={driftChecksOnly}
              onClick={toggleDriftChecks}
            />
          </FilterGroup>
        </Box>
        <NoAnswerNotice silentSince={silentSince} hasData={Boolean(value)} />
        {!cursorRefused && <ReloadFailedNotice failure={reloadFailed} />}
        {error && !cursorRefused && <ErrorPanel error={error} />}
        {loading && !value && <Progress />}
        {value && (
          <Reloading reloading={switching} label="Loading runs">
            {waitingForRunner && (
              <WaitingForRunnerNotice
                reason={waitingForRunner.queueState?.reason}
                labels={waitingForRunner.queueState?.requiredRunnerLabels}
                onRunnerConnected={refresh}
              />
            )}
            <PluginTable
              title={`Pipeline runs (${value.meta.totalCount})`}
              options={TABLE_OPTIONS}
              columns={columns}
              data={value.data}
              emptyContent={
                <CardBody>
                  {filtersShown.length ? (
                    <>
                      <Typography>
                        No runs match the filters: {filtersShown.join(', ')}.
                      </Typography>
                      <Button
                        variant="outlined"
                        size="small"
                        style={{ marginTop: 8 }}
                        onClick={clearFilters}
                      >
                        Show every run
                      </Button>
                    </>
                  ) : (
                    <Typography>No runs yet.</Typography>
                  )}
                </CardBody>
              }
            />
            {(first > 1 || value.meta.nextCursor) && (
              <Box
                display="flex"
                alignItems="center"
                justifyContent="flex-end"
                style={{ gap: 8 }}
                marginTop={1}
              >
                <Typography variant="body2">
                  Runs {first}–{first + value.data.length - 1} of{' '}
                  {value.meta.totalCount}
                </Typography>
                <Button
                  size="small"
                  disabled={switching || pages.length === 0}
                  onClick={() => setPages(pages.slice(0, -1))}
                >
                  Newer
                </Button>
                <Button
                  size="small"
                  disabled={switching || !value.meta.nextCursor}
                  onClick={() =>
                    value.meta.nextCursor &&
                    setPages([...pages, value.meta.nextCursor])
                  }
                >
                  Older
                </Button>
              </Box>
            )}
          </Reloading>
        )}
      </div>
    </DataAsOf>
  );
};
