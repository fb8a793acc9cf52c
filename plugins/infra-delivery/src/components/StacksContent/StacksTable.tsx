import { InfoCard, Progress, TableColumn } from '@backstage/core-components';
import { PluginTable } from '../common/PluginTable';
import { CARD_TABLE_OPTIONS, contentWidths } from '../common/tableOptions';
import { TableCard } from '../common/TableCard';
import { useEntity } from '@backstage/plugin-catalog-react';
import { PipelineRun } from '@infra-delivery/plugin-infra-delivery-common';
import { isStackEntity } from '../common/stackEntityRef';
import { useApi } from '@backstage/frontend-plugin-api';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { useCallback, useMemo, useRef, useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { useActionMessage } from '../common/ActionMessage';
import { AttemptKey } from '../common/attemptKey';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { DetailsButton } from '../common/DetailsButton';
import { useOpenedDrawer } from '../common/drawerLinks';
import { ErrorPanel } from '../common/ErrorPanel';
import { MaybeLink } from '../common/MaybeLink';
import { runStartedAt } from '../common/runStartedAt';
import { Timestamp } from '../common/Timestamp';
import { noRunnerWillClaim, RunState } from '../common/RunStatus';
import { hasSettled, startedRunOutcome } from './startedRunOutcome';
import { useNothingToApply } from '../common/nothingToApply';
import { runTitle, runTitleBesideStack } from '../common/runTitle';
import { useCanExecuteRuns } from '../common/useCanExecuteRuns';
import { isActiveRun, LIVE_POLL_MS } from '../common/livePolling';
import { useEntityRunLink } from '../common/useEntityTabLink';
import { useLiveRuns } from '../common/useLiveRuns';
import { useLivePolling } from '../common/useLivePolling';
import { DataAsOf } from '../common/DataAsOf';
import { NoAnswerNotice } from '../common/NoAnswerNotice';
import { ReloadFailedNotice } from '../common/ReloadFailedNotice';
import { WaitingForRunnerNotice } from '../Runners/WaitingForRunnerNotice';
import { driftCheckBusyReason, StackBusyNote } from './StackBusyNote';
import { StackDetails, StackDrawer } from './StackDrawer';
import { PlanAndApplyButton } from './PlanAndApplyButton';
import { RunStateNote } from '../PipelineRunsContent/RunStateNote';
import { useBlockingRuns } from '../PipelineRunsContent/useBlockingRuns';
import { DriftStatus } from '../Drift/DriftStatus';
import {
  DriftFilter,
  DriftFilterValue,
  matchesDriftFilter,
} from '../Drift/DriftFilter';
import { StackOverview, useStacksOverview } from './useStacksOverview';
import { StackOutputsSummary } from './StackOutputs';
import { NoStacksHere } from './NoStacksHere';
import { UnknownStacksNote } from './UnknownStacksNote';
import { CARD_HEADING } from '../common/cardHeading';
import { narrowerThan, useContainerWidth } from '../common/useContainerWidth';

/**
 * A stack's resource count under its drift, which may say "1 resource" (drifted) above it:
 * "4 resources in all" tells the two apart.
 */
const resourcesText = (count: number) => {
  if (count === 0) return 'Nothing applied yet';
  return count === 1 ? '1 resource in all' : `${count} resources in all`;
};

export const StacksTable = ({ stackIds }: { stackIds: string[] }) => {
  const client = useApi(infraDeliveryApiRef);
  const canExecute = useCanExecuteRuns();
  const { value, loading, error, silentSince, reloadFailed, retry } =
    useStacksOverview(stackIds);
  const rows = value?.rows;
  const refresh = useCallback(() => retry(), [retry]);
  useLiveRuns(refresh);
  useLivePolling(
    refresh,
    rows?.some(row => isActiveRun(row.latestRun?.status))
      ? LIVE_POLL_MS
      : undefined,
  );
  // The opened stack by id (in the query string, where links open it): the drawer shows it as
  // the table last read it, so a drift check or run started from the drawer shows there when
  // the table reloads.
  const [openedId, setOpenedId] = useOpenedDrawer('stack');
  const [driftFilter, setDriftFilter] = useState<DriftFilterValue>('ALL');
  // Stacks deleted here: their rows go at once, before the table has read the service again.
  const [deletedIds, setDeletedIds] = useState<string[]>([]);
  const { entity } = useEntity();
  const runLink = useEntityRunLink();
  // What each run started here is called in the message ("A plan of Network").
  const startedRuns = useRef(new Map<string, string>());
  const latestRunOf = (runId: string | undefined) =>
    rows?.find(row => row.latestRun?.id === runId)?.latestRun;
  // The run the message follows: once it has succeeded, its plan summaries say whether it
  // found nothing to apply.
  const [followedId, setFollowedId] = useState<string>();
  const nothingToApply = useNothingToApply(latestRunOf(followedId));
  // The message follows the run it speaks of: "… has started" became "… waits for your
  // approval" (with the way to the Approve button), and goes once nobody needs to act on it.
  const { message, say } = useActionMessage(
    runId => {
      const run = latestRunOf(runId);
      return Boolean(run && hasSettled(run));
    },
    runId => {
      const run = latestRunOf(runId);
      const what = startedRuns.current.get(runId);
      return run && what
        ? startedRunOutcome(
            what,
            run,
            runLink(entity, run.id),
            runId === followedId && nothingToApply,
          )
        : undefined;
    },
  );
  /** Says what an action started, with a link to the run's page. */
  const startedBy =
    (what: string) =>
    ({ data: run }: { data: PipelineRun }) => {
      startedRuns.current.set(run.id, what);
      setFollowedId(run.id);
      say(startedRunOutcome(what, run, runLink(entity, run.id)));
      refresh();
    };

  const opened = rows?.find(row => row.stackId === openedId);
  const stacks = (rows ?? []).map(row => row.stack);
  const latestRuns = useMemo(() => rows?.map(row => row.latestRun), [rows]);
  const blockerOf = useBlockingRuns(latestRuns, stacks);

  // A stack's own page shows its details under its row, where other entities open a drawer.
  const ownStack =
    isStackEntity(entity) && rows?.length === 1 ? rows[0] : undefined;
  // The room the table has: under 760 px (a 900 px window beside the sidebar has 640) six
  // columns took 750 and the table scrolled sideways, its actions cut at the card's edge. There
  // the resources go under the drift, and the outputs are left to the stack's details.
  const [measured, width] = useContainerWidth<HTMLDivElement>();
  const narrow = narrowerThan(width, 760);
  if (loading && !value) {
    return (
      <>
        <NoAnswerNotice silentSince={silentSince} hasData={false} />
        <Progress />
      </>
    );
  }
  if (error) {
    return <ErrorPanel error={error} />;
  }

  const destroy = (pipelineId: string, { idempotencyKey }: AttemptKey) =>
    client.call('triggerPipelineRun', {
      params: { id: pipelineId },
      idempotencyKey,
      body: { data: {} },
    });

  const columns: TableColumn<StackOverview>[] = [
    {
      title: 'Stack',
      render: row => (
        <Box style={{ whiteSpace: 'nowrap' }}>
          {ownStack ? (
            <Typography variant="body2">{row.stack.name}</Typography>
          ) : (
            <DetailsButton
              name={row.stack.name}
              onClick={() => setOpenedId(row.stackId)}
            />
          )}
          <Typography variant="caption" color="textSecondary" component="div">
            {row.stack.givenId}
          </Typography>
        </Box>
      ),
    },
    {
      title: 'Latest run',
      render: row => (
        <Box maxWidth="12em">
          <RunState run={row.latestRun} wrap />
          {/* Which run, linked to its page: "Waiting for approval" leads to the Approve button.
              Its stack is the row's. */}
          {row.latestRun && (
            <Typography variant="caption" color="textSecondary" component="div">
              <MaybeLink to={runLink(entity, row.latestRun.id)}>
                {runTitleBesideStack(row.latestRun, stacks)}
              </MaybeLink>
              {/* When, as the Overview's Started column says it: the row alone did not say
                  whether its Succeeded was from today or last month. */}
              <div>
                <Timestamp value={runStartedAt(row.latestRun)} />
              </div>
              <div>
                <RunStateNote
                  run={row.latestRun}
                  runPath={runId => runLink(entity, runId)}
                  blocker={blockerOf(row.latestRun)}
                />
              </div>
            </Typography>
          )}
        </Box>
      ),
    },
    {
      title: 'Drift',
      render: row => (
        <>
          <DriftStatus stack={row.stack} stacked />
          {narrow && (
            <Typography variant="caption" color="textSecondary" component="p">
              {resourcesText(row.resourceCount)}
            </Typography>
          )}
        </>
      ),
    },
    ...(narrow
      ? []
      : [
          // No sort arrow: its room would push the actions off a 1,024 px screen.
          {
            title: 'Resources',
            field: 'resourceCount',
            type: 'numeric' as const,
            sorting: false,
          },
          {
            title: 'Outputs',
            render: (row: StackOverview) => (
              <StackOutputsSummary output={row.stack.output} />
            ),
          },
        ]),
  ];
  const busyNote = ({ latestRun }: StackOverview) =>
    latestRun && (
      <StackBusyNote
        run={latestRun}
        title={runTitle(latestRun, stacks)}
        blocker={blockerOf(latestRun)}
      />
    );
  /** Plan & apply and Destroy of a stack: in its row, and at the top of its drawer. */
  const stackActions = (row: StackOverview) => (
    // Side by side from 1,280 px, where the other columns make room (outputs are cut to
    // fit); one above the other below, where the row has no room for both.
    <Box
      display="flex"
      flexWrap={{ xs: 'wrap', lg: 'nowrap' }}
      style={{ gap: 8, whiteSpace: 'nowrap' }}
    >
      <PlanAndApplyButton
        stack={row.stack}
        onDone={startedBy(`A plan of ${row.stack.name}`)}
      >
        {busyNote(row)}
      </PlanAndApplyButton>
      <ConfirmActionButton
        label="Destroy"
        ariaLabel={`Destroy ${row.stack.name}`}
        color="secondary"
        title={`Destroy every resource of ${row.stack.name}?`}
        typedConfirmation={row.stack.name}
        confirmLabel="Queue the destruction"
        disabled={row.resourceCount === 0}
        disabledReason="Nothing is applied yet: there is nothing to destroy"
        onConfirm={(_note, attempt) =>
          destroy(row.stack.destroyPipelineId, attempt)
        }
        onDone={startedBy(`The destruction of ${row.stack.name}`)}
      >
        <Typography>
          This queues the destroy pipeline of the stack: it plans the
          destruction of its {row.resourceCount} resources
          {row.stack.autoApprove
            ? ' and destroys them without approval.'
            : ', waits for an approval, then destroys them.'}
        </Typography>
        {busyNote(row)}
      </ConfirmActionButton>
    </Box>
  );
  // A viewer has nothing to press here: no empty column.
  if (canExecute) {
    columns.push({ title: 'Actions', render: stackActions });
  }

  const detailsOf = (row: StackOverview) => ({
    stack: row.stack,
    runPath: (runId: string) => runLink(entity, runId),
    onStarted: (what: string, run: PipelineRun) =>
      startedBy(what)({ data: run }),
    latestRun: row.latestRun,
    resourceCount: row.resourceCount,
    driftCheckBusy:
      row.latestRun &&
      driftCheckBusyReason(
        row.latestRun,
        runTitle(row.latestRun, stacks),
        blockerOf(row.latestRun),
      ),
    onChanged: (what: string) => {
      say({ text: `${what}.` });
      refresh();
    },
  });
  const ownDetails = ownStack && detailsOf(ownStack);
  // Its details are on the page already: no drawer repeats them.
  const openedDetails = !ownStack && opened && detailsOf(opened);

  const remaining = (rows ?? []).filter(
    row => !deletedIds.includes(row.stackId),
  );
  const waitingForRunner = rows?.find(row =>
    noRunnerWillClaim(row.latestRun),
  )?.latestRun;

  // A running run's runner judged as of the table's last answer while a reload goes unanswered
  // (`DataAsOf`), as on the run page.
  return (
    <DataAsOf state={{ loading, silentSince, reloadFailed }}>
      <NoAnswerNotice silentSince={silentSince} />
      <ReloadFailedNotice failure={reloadFailed} />
      {message}
      {waitingForRunner && (
        <WaitingForRunnerNotice
          reason={waitingForRunner.queueState?.reason}
          labels={waitingForRunner.queueState?.requiredRunnerLabels}
          onRunnerConnected={refresh}
        />
      )}
      <div ref={measured}>
        <TableCard
          title="Stacks"
          // The filter in the header of the table it filters, as the runs list's chips are
          // above its rows. Filtering one stack (a stack's own page) would only hide it.
          action={
            stackIds.length > 1 && (
              <DriftFilter value={driftFilter} onChange={setDriftFilter} />
            )
          }
        >
          <PluginTable
            options={CARD_TABLE_OPTIONS}
            columns={contentWidths(columns)}
            data={remaining.filter(row =>
              matchesDriftFilter(driftFilter, row.stack),
            )}
            emptyContent={
              <NoStacksHere entity={entity} filtered={remaining.length > 0} />
            }
          />
        </TableCard>
      </div>
      <UnknownStacksNote
        entity={entity}
        stackIds={value?.unknownStackIds ?? []}
      />
      {ownDetails && (
        <Box marginTop={3}>
          <InfoCard
            titleTypographyProps={CARD_HEADING}
            title={`${ownDetails.stack.name} in detail`}
          >
            <StackDetails {...ownDetails} />
          </InfoCard>
        </Box>
      )}
      {openedDetails && (
        <StackDrawer
          {...openedDetails}
          onClose={() => setOpenedId(undefined)}
          onDeleted={deleted => {
            setDeletedIds(ids => [...ids, deleted.id]);
            setOpenedId(undefined);
            say({
              text: `${deleted.name} is deleted, with its pipelines and run history. It leaves the catalog at the catalog's next read of the service.`,
            });
            refresh();
          }}
          message={message}
          actions={canExecute ? stackActions(opened) : undefined}
        />
      )}
    </DataAsOf>
  );
};
