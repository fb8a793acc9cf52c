import { Link } from '@backstage/core-components';
import { formatRunnerLabels } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { useIsOrganizationAdmin } from '../common/useIsOrganizationAdmin';
import { ConnectRunnerButton } from './ConnectRunnerButton';
import { RunnerStartCommand } from './RunnerStartCommand';
import { useRunnersCardLink } from './useRunnersCardLink';
import { RUNNER_TOKEN_PLACEHOLDER } from './runnerCommand';

const DEFAULT_REASON = 'No runner is connected to this organization.';

/** The reason as a sentence that another can follow. */
function asSentence(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/** What others than admins can do: see the runners, and ask an admin. */
const RunnersCardLink = () => {
  const link = useRunnersCardLink();
  return (
    <Typography variant="body2">
      An organization admin can connect one
      {link ? (
        <>
          ; the <Link to={link}>Organization page</Link> lists the runners.
        </>
      ) : (
        ' on the Organization page.'
      )}
    </Typography>
  );
};

/**
 * Says that a run waits because no runner is connected (or the connected ones have gone
 * silent), how to start one, and (for admins) offers to connect one right away.
 */
export const WaitingForRunnerNotice = ({
  reason,
  labels,
  onRunnerConnected,
}: {
  /** The service's sentence for a person, `queueState.reason`. */
  reason?: string;
  /** The labels the runner must carry, `queueState.requiredRunnerLabels`. */
  labels?: string[];
  onRunnerConnected?: () => void;
}) => {
  const isAdmin = useIsOrganizationAdmin();
  const labelled = Boolean(labels?.length);
  return (
    <Box marginBottom={2}>
      <Alert severity="warning" role="status">
        <AlertTitle>
          {labelled
            ? `Waiting for a runner with labels ${formatRunnerLabels(labels!)}`
            : 'Waiting for a runner'}
        </AlertTitle>
        <Typography variant="body2" gutterBottom>
          {asSentence(reason || DEFAULT_REASON)} The run continues as soon as a
          runner claims its next step.
        </Typography>
        <Box marginY={1}>
          <Typography variant="body2">
            Start a runner in the directory that holds your infrastructure code,
            with an API key of a runner service account
            {labelled ? ', carrying the labels the stack requires' : ''}:
          </Typography>
          <RunnerStartCommand
            token={RUNNER_TOKEN_PLACEHOLDER}
            labels={labels}
          />
        </Box>
        {isAdmin && (
          <ConnectRunnerButton
            variant="outlined"
            onConnected={onRunnerConnected}
          />
        )}
        {isAdmin === false && <RunnersCardLink />}
      </Alert>
    </Box>
  );
};
