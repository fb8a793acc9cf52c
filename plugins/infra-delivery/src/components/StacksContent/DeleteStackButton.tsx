import { useApi } from '@backstage/frontend-plugin-api';
import {
  PipelineRun,
  RunStatus,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import Typography from '@material-ui/core/Typography';
import { infraDeliveryApiRef } from '../../api';
import { ConfirmActionButton } from '../common/ConfirmActionButton';

/** The runs the service waits for before it deletes their stack (BUSY). */
const OPEN_RUN_STATUSES: RunStatus[] = [
  'QUEUED',
  'RUNNING',
  'WAITING_FOR_APPROVAL',
];

/**
 * Why the service would refuse to delete the stack now, or undefined when it would not: it
 * deletes only a stack that manages no resources (NOT_EMPTY) and has no open run (BUSY).
 */
export function deleteBlockedReason(
  stack: Stack,
  resourceCount: number | undefined,
  latestRun: PipelineRun | undefined,
): string | undefined {
  if (resourceCount) {
    return `${stack.name} still manages ${resourceCount} ${
      resourceCount === 1 ? 'resource' : 'resources'
    }: destroy them first with Destroy (its destroy pipeline), then delete the stack.`;
  }
  if (latestRun && OPEN_RUN_STATUSES.includes(latestRun.status)) {
    return `${stack.name} has a run that has not ended: cancel it or let it end, then delete the stack.`;
  }
  return undefined;
}

/**
 * Deletes a stack (`DELETE /stacks/{id}`) after a confirmation that says what goes (the stack,
 * its pipelines and their run history) and what stays (everything in the cloud: the service
 * deletes only a stack whose state is empty). Disabled, saying why, while the service would
 * refuse; its refusal otherwise shows in the dialog.
 */
export const DeleteStackButton = ({
  stack,
  resourceCount,
  latestRun,
  onDeleted,
}: {
  stack: Stack;
  /** The stack's applied resources as the table counts them. */
  resourceCount?: number;
  /** The stack's latest run as the table last read it. */
  latestRun?: PipelineRun;
  /** Called once the service has deleted the stack. */
  onDeleted: (stack: Stack) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const blocked = deleteBlockedReason(stack, resourceCount, latestRun);
  return (
    <>
      <ConfirmActionButton
        label="Delete stack"
        color="secondary"
        title={`Delete ${stack.name}?`}
        typedConfirmation={stack.name}
        confirmLabel="Delete the stack"
        disabled={blocked !== undefined}
        disabledReason={blocked}
        onConfirm={() =>
          client.call('deleteStack', { params: { id: stack.id } })
        }
        onDone={() => onDeleted(stack)}
      >
        <Typography paragraph>
          This deletes {stack.name} from the infrastructure service, with its
          change and destroy pipelines and their run history. It cannot be
          undone.
        </Typography>
        <Typography>
          Nothing in the cloud is touched: the service deletes only a stack that
          manages no resources, so destroy them first. The stack leaves the
          catalog at the catalog's next read of the service.
        </Typography>
      </ConfirmActionButton>
      {blocked && (
        <Typography variant="body2" color="textSecondary">
          {blocked}
        </Typography>
      )}
    </>
  );
};
