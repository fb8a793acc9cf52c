import Button from '@material-ui/core/Button';
import { ButtonWithReason } from './ButtonWithReason';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import { ReactNode, useId } from 'react';
import { DialogForm } from './DialogForm';
import { NoAnswerNote } from './NoAnswerNote';
import { PluginDialog } from './PluginDialog';

/**
 * A dialog that asks for what one request sends: its title, its fields (`children`), Cancel
 * and the submit button (`submitLabel`), which Enter in a field presses too. While `busy` (the
 * request under way) neither the buttons nor a click outside do anything, until the service
 * has not answered for long (`silentFor`, from `useSubmission`): then the dialog says so, and
 * Cancel closes it.
 */
export const FormDialog = ({
  title,
  submitLabel,
  canSubmit,
  disabledReason,
  busy,
  silentFor,
  onSubmit,
  onClose,
  secondaryAction,
  children,
}: {
  title: ReactNode;
  submitLabel: ReactNode;
  /** Whether what was entered can be sent. */
  canSubmit: boolean;
  /** Why the submit button is greyed, said on hover and focus (not while `busy`). */
  disabledReason?: string;
  busy: boolean;
  /** The seconds the request under way has gone unanswered, once that is long. */
  silentFor?: number;
  onSubmit: () => void;
  onClose: () => void;
  /** A button between Cancel and the submit button (a multi-step dialog's Back). */
  secondaryAction?: ReactNode;
  children: ReactNode;
}) => {
  const titleId = useId();
  const canClose = !busy || silentFor !== undefined;
  return (
    <PluginDialog
      open
      onClose={() => canClose && onClose()}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
    >
      <DialogForm onSubmit={onSubmit} canSubmit={canSubmit && !busy}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>{children}</DialogContent>
        <DialogActions>
          <Button onClick={() => onClose()} disabled={!canClose}>
            Cancel
          </Button>
          {secondaryAction}
          <ButtonWithReason
            type="submit"
            color="primary"
            variant="contained"
            disabled={!canSubmit || busy}
            disabledReason={busy ? undefined : disabledReason}
          >
            {submitLabel}
          </ButtonWithReason>
        </DialogActions>
        <NoAnswerNote silentFor={silentFor} />
      </DialogForm>
    </PluginDialog>
  );
};
