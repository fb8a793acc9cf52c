import {
  PipelineRun,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import Accordion from '@material-ui/core/Accordion';
import AccordionDetails from '@material-ui/core/AccordionDetails';
import AccordionSummary from '@material-ui/core/AccordionSummary';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import ExpandMoreIcon from '@material-ui/icons/ExpandMore';
import { Progress } from '@backstage/core-components';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { ErrorPanel } from '../common/ErrorPanel';
import { CHANGE_KIND_LABELS } from '../common/labels';
import { MaybeLink } from '../common/MaybeLink';
import { Timestamp } from '../common/Timestamp';
import {
  CHECKING_PERMISSIONS,
  useRunsCheck,
} from '../common/useCanExecuteRuns';
import { ResourceDiff } from '../PipelineRunsContent/ResourceChanges';
import { DriftStatus, isDriftWatched } from './DriftStatus';
import { useDrift } from './useDrift';

/**
 * The drift part of a stack's drawer: the status and when it was checked, each drifted
 * resource with its before and after, and the actions: check now, reconcile.
 */
export const StackDriftSection = ({
  stack,
  runPath,
  onStarted,
  resourceCount,
  busy,
}: {
  stack: Stack;
  /**
   * Why a drift check cannot start now: the stack has an open run, whose plan shows the drift
   * (the service refuses the check, STACK_BUSY).
   */
  busy?: string;
  /** The stack's applied resources, where known: with none, nothing can have drifted. */
  resourceCount?: number;
  runPath?: (runId: string) => string | undefined;
  /** Called with the run an action started and what it is ("A drift check"). */
  onStarted?: (what: string, run: PipelineRun) => void;
}) => {
  const { drifted, checkNow, reconcile } = useDrift(stack);
  const execute = useRunsCheck();
  const nothingApplied = resourceCount === 0;
  /** Why a drift check is not offered now. */
  const checkRefusal = () => {
    if (execute.checking) return CHECKING_PERMISSIONS;
    if (nothingApplied)
      return 'Nothing is applied yet: there is nothing to drift';
    return busy;
  };
  return (
    <Box marginBottom={2} component="section" aria-labelledby="drift-heading">
      <Typography variant="h6" component="h3" id="drift-heading">
        Drift
      </Typography>
      <Box
        display="flex"
        flexWrap="wrap"
        alignItems="center"
        style={{ gap: 16 }}
      >
        <DriftStatus stack={stack} />
        {stack.lastDriftCheckAt && (
          <Typography variant="body2" color="textSecondary">
            <MaybeLink
              to={
                stack.lastDriftCheckRunId
                  ? runPath?.(stack.lastDriftCheckRunId)
                  : undefined
              }
            >
              Checked <Timestamp value={stack.lastDriftCheckAt} />
            </MaybeLink>
          </Typography>
        )}
        <Typography variant="body2" color="textSecondary">
          {stack.driftCheckIntervalHours
            ? `Checked every ${
                stack.driftCheckIntervalHours === 1
                  ? 'hour'
                  : `${stack.driftCheckIntervalHours} hours`
              }`
            : 'No scheduled drift checks'}
        </Typography>
      </Box>
      {(execute.allowed || execute.checking) && (
        <Box display="flex" flexWrap="wrap" style={{ gap: 8 }} marginTop={1}>
          <ConfirmActionButton
            label="Check for drift"
            disabled={execute.checking || nothingApplied || busy !== undefined}
            disabledReason={checkRefusal()}
            title={`Check ${stack.name} for drift?`}
            onConfirm={checkNow}
            onDone={({ data }) => onStarted?.('A drift check', data)}
          >
            <Typography>
              A runner plans the stack's change pipeline without applying it;
              the plan shows whether the infrastructure still matches the code.
            </Typography>
          </ConfirmActionButton>
          {stack.driftStatus === 'DRIFTED' && (
            <ConfirmActionButton
              label="Reconcile"
              disabled={execute.checking}
              disabledReason={CHECKING_PERMISSIONS}
              title={`Reconcile the drift of ${stack.name}?`}
              onConfirm={reconcile}
              onDone={({ data }) => onStarted?.('A reconciling plan', data)}
            >
              <Typography>
                This queues the stack's change pipeline: a plan,
                {stack.autoApprove
                  ? ' then the apply without approval,'
                  : ' an approval, then the apply,'}{' '}
                bringing the drifted resources back to what the code says.
              </Typography>
            </ConfirmActionButton>
          )}
          {busy && !nothingApplied && (
            <Typography variant="body2" color="textSecondary">
              {busy}
            </Typography>
          )}
          {nothingApplied && (
            <Typography variant="body2" color="textSecondary">
              Nothing is applied yet: a drift check compares applied resources
              with the code.
            </Typography>
          )}
        </Box>
      )}
      {isDriftWatched(stack) && stack.driftStatus === 'DRIFTED' && (
        <Box marginTop={1}>
          {drifted.loading && <Progress />}
          {drifted.error && <ErrorPanel error={drifted.error} />}
          {drifted.value?.map(resource => (
            <Accordion
              key={resource.id}
              TransitionProps={{ unmountOnExit: true }}
            >
              <AccordionSummary expandIcon={<ExpandMoreIcon />}>
                <Typography variant="body2">
                  {CHANGE_KIND_LABELS[resource.changeKind]}: {resource.address}
                </Typography>
              </AccordionSummary>
              <AccordionDetails>
                <ResourceDiff resource={resource} />
              </AccordionDetails>
            </Accordion>
          ))}
        </Box>
      )}
    </Box>
  );
};
