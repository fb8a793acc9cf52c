import { InfoCard, Progress } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import { FINAL_STATUSES } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { useCallback } from 'react';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { useActionMessage } from '../common/ActionMessage';
import { infraDeliveryApiRef } from '../../api';
import {
  isQueuedForRunner,
  noRunnerWillClaim,
  RunState,
} from '../common/RunStatus';
import { isLiveRun, LIVE_POLL_MS } from '../common/livePolling';
import { useLiveRuns } from '../common/useLiveRuns';
import { useLivePolling } from '../common/useLivePolling';
import { LoadNotes } from '../common/LoadNotes';
import { DataAsOf } from '../common/DataAsOf';
import { WaitingForRunnerNotice } from '../Runners/WaitingForRunnerNotice';
import { PlanSummary, summariesInStepOrder } from './PlanSummary';
import { ResourceChanges } from './ResourceChanges';
import { RunActions } from './RunActions';
import { StepTimeline } from './StepTimeline';
import { RunNames } from '../common/useRunNames';
import { RunFacts } from './RunFacts';
import { WhyItWaits } from './WhyItWaits';
import { ErrorText } from '../common/WarningText';
import { ErrorBodyDetails } from '../common/ErrorPanel';
import { CARD_HEADING } from '../common/cardHeading';
import { CardBody } from '../common/CardBody';
import { useFocusRingStyles } from '../common/focusRing';

/** One run: its actions, steps with logs, plan summaries and resource changes. */
export const RunDetails = ({
  runId,
  names,
  onChanged,
  onClose,
  runPath,
}: {
  runId: string;
  names: RunNames;
  /** The page of another run: a run held by one links to it. */
  runPath: (runId: string) => string | undefined;
  /** Called after an action changed the run. */
  onChanged?: () => void;
  /** Offers a Close button. */
  onClose?: () => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const load = useReloadableAsync(async () => {
    const [run, steps, summaries] = await Promise.all([
      client.call('getPipelineRun', { params: { id: runId } }),
      client.call('listStepExecutions', { params: { id: runId } }),
      client.call('listIacExecutionSummaries', {
        query: { pipelineRunId: runId },
      }),
    ]);
    // The run holding a queued run's stack, to say what it does (gone: said without it).
    const blockingRunId =
      run.data.status === 'QUEUED'
        ? run.data.queueState?.blockingRunId
        : undefined;
    const blocker = blockingRunId
      ? await client
          .call('getPipelineRun', { params: { id: blockingRunId } })
          .then(answer => answer.data)
          .catch(() => undefined)
      : undefined;
    return {
      run: run.data,
      steps: steps.data,
      summaries: summaries.data,
      blocker,
    };
  }, [client, runId]);
  const { value, loading, error, retry } = load;
  const refresh = useCallback(() => retry(), [retry]);
  const { focusRing } = useFocusRingStyles();
  const { message, say } = useActionMessage(
    id => id === value?.run.id && FINAL_STATUSES.includes(value.run.status),
  );
  useLiveRuns(refresh);
  useLivePolling(
    refresh,
    isLiveRun(value?.run.status) ? LIVE_POLL_MS : undefined,
  );

  return (
    // A runner's silence is judged as of the run's last answer from the service.
    <DataAsOf state={load}>
      <Box
        marginTop={2}
        component="section"
        aria-label="Run details"
        // Approve, Reject and Cancel run show keyboard focus as a ring.
        className={focusRing}
      >
        <InfoCard
          titleTypographyProps={CARD_HEADING}
          title={
            // eslint-disable-next-line no-nested-ternary
            value
              ? names.runTitle(value.run)
              : error
              ? 'Run'
              : 'Loading the run…'
          }
          subheader={value && <RunFacts run={value.run} names={names} />}
          action={onClose && <Button onClick={onClose}>Close</Button>}
          noPadding
        >
          <CardBody>
            <LoadNotes state={load} />
            {loading && !value && <Progress />}
            {value && (
              <>
                {message}
                <Box
                  display="flex"
                  flexWrap="wrap"
                  alignItems="center"
                  style={{ gap: 16 }}
                >
                  <Box>
                    <RunState run={value.run} />
                    {/* A queued run says what it waits for, and so does a running one whose
                      runners are busy: the page a plan pressed in the portal leads to never
                      waits in silence. No runner to claim it has the notice below instead. */}
                    {(value.run.status === 'QUEUED' ||
                      isQueuedForRunner(value.run)) &&
                      !noRunnerWillClaim(value.run) && (
                        <Typography
                          variant="caption"
                          color="textSecondary"
                          component="div"
                        >
                          <WhyItWaits
                            run={value.run}
                            runPath={runPath}
                            blocker={
                              value.blocker && {
                                title: names.runTitle(value.blocker),
                                status: value.blocker.status,
                              }
                            }
                          />
                        </Typography>
                      )}
                  </Box>
                  <RunActions
                    run={value.run}
                    plans={value.summaries}
                    steps={value.steps}
                    pipelineKind={names.pipelineKind(value.run.pipelineId)}
                    runPath={runPath}
                    onDone={outcome => {
                      say(outcome);
                      refresh();
                      onChanged?.();
                    }}
                  />
                </Box>
                {noRunnerWillClaim(value.run) && (
                  <Box marginTop={2}>
                    <WaitingForRunnerNotice
                      reason={value.run.queueState?.reason}
                      labels={value.run.queueState?.requiredRunnerLabels}
                      onRunnerConnected={refresh}
                    />
                  </Box>
                )}
                {value.run.error && (
                  <Box marginTop={1}>
                    <Typography>
                      <ErrorText>{value.run.error.message}</ErrorText>
                    </Typography>
                    {/* What the runner explains (a state lock: who holds it, the command that
                      releases it, a link to its docs; a step that timed out: why and what next). */}
                    <ErrorBodyDetails body={value.run.error} />
                  </Box>
                )}
                {summariesInStepOrder(value.summaries, value.steps).map(
                  summary => (
                    <PlanSummary key={summary.id} summary={summary} />
                  ),
                )}
              </>
            )}
          </CardBody>
        </InfoCard>
        {/* The steps and the resource changes are sections of the page, each a card of its
          own as an entity page's are: drawn inside the run's card, they were boxes in a box. */}
        {value && (
          <>
            <Box marginTop={3}>
              <InfoCard
                titleTypographyProps={CARD_HEADING}
                title="Steps"
                noPadding
              >
                <StepTimeline
                  steps={value.steps}
                  runStatus={value.run.status}
                  runError={value.run.error?.message}
                  names={names}
                  changeSummary={value.run.changeSummary}
                />
              </InfoCard>
            </Box>
            <ResourceChanges
              runId={runId}
              stepsKey={value.steps.map(step => step.status).join()}
            />
          </>
        )}
      </Box>
    </DataAsOf>
  );
};
