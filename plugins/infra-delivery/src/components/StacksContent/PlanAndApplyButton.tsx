import { useApi } from '@backstage/frontend-plugin-api';
import {
  PipelineRun,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import Typography from '@material-ui/core/Typography';
import { ReactNode } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { CHECKING_PERMISSIONS } from '../common/useCanExecuteRuns';

/**
 * Plan & apply of a stack: after a confirmation that says what the run does (and takes an
 * optional note that names the run), a run of the stack's change pipeline. Without a note, a
 * run is named after what it does to its stack ("Plan & apply").
 */
export const PlanAndApplyButton = ({
  stack,
  onDone,
  children,
  checking,
}: {
  stack: Stack;
  /** Whether the caller may start runs is still being read: the button waits, greyed. */
  checking?: boolean;
  onDone: (started: { data: PipelineRun }) => void;
  /** More to say in the confirmation: what the run would wait for, say. */
  children?: ReactNode;
}) => {
  const client = useApi(infraDeliveryApiRef);
  return (
    <ConfirmActionButton
      label="Plan & apply"
      ariaLabel={`Plan & apply ${stack.name}`}
      title={`Plan and apply ${stack.name}?`}
      disabled={checking}
      disabledReason={CHECKING_PERMISSIONS}
      noteLabel="What is this run for? (optional)"
      noteHelperText="Names the run in the runs list"
      onConfirm={(description, { idempotencyKey }) =>
        client.call('triggerPipelineRun', {
          params: { id: stack.changePipelineId },
          idempotencyKey,
          body: { data: description ? { description } : {} },
        })
      }
      onDone={onDone}
    >
      <Typography>
        This queues a run of the stack's change pipeline: a plan,
        {stack.autoApprove
          ? ' then the apply without approval.'
          : ' an approval, then the apply.'}{' '}
        A plan that changes nothing ends the run.
      </Typography>
      {children}
    </ConfirmActionButton>
  );
};
