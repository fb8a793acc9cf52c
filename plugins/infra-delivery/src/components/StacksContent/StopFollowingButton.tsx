import { useApi } from '@backstage/frontend-plugin-api';
import {
  Stack,
  StackGitTrigger,
} from '@infra-delivery/plugin-infra-delivery-common';
import Typography from '@material-ui/core/Typography';
import { infraDeliveryApiRef } from '../../api';
import { ConfirmActionButton } from '../common/ConfirmActionButton';

/** What stops happening when a stack stops following its branch, in words. */
function whatStops(
  stack: Stack,
  trigger: StackGitTrigger,
  repoName?: string,
): string[] {
  const branch = repoName ? `${trigger.branch} of ${repoName}` : trigger.branch;
  const lines: string[] = [];
  if (trigger.pushRuns) {
    lines.push(`Pushes to ${branch} no longer start runs of ${stack.name}.`);
  }
  if (trigger.pullRequestPlans) {
    lines.push(`Pull requests into ${trigger.branch} no longer get a plan.`);
  }
  lines.push('Runs start by hand only.');
  return lines;
}

/**
 * Stops a stack following its Git branch, once the person confirms: pushes then no longer
 * start runs, which nobody notices until a change goes unapplied.
 */
export const StopFollowingButton = ({
  stack,
  trigger,
  repoName,
  disabled,
  onStopped,
}: {
  stack: Stack;
  trigger: StackGitTrigger;
  /** The repository the stack follows, when known. */
  repoName?: string;
  disabled: boolean;
  /** Called with the stack as saved. */
  onStopped: (stack: Stack) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  return (
    <ConfirmActionButton
      label="Stop following"
      title={`Stop following ${trigger.branch}?`}
      color="secondary"
      disabled={disabled}
      // Beside the dialog's own Cancel, "Cancel" would read as undoing the edit.
      dismissLabel="Keep following"
      onConfirm={() =>
        client.call('updateStack', {
          params: { id: stack.id },
          body: { data: { gitTrigger: null } },
        })
      }
      onDone={saved => onStopped(saved.data)}
    >
      {whatStops(stack, trigger, repoName).map(line => (
        <Typography key={line} paragraph>
          {line}
        </Typography>
      ))}
    </ConfirmActionButton>
  );
};
