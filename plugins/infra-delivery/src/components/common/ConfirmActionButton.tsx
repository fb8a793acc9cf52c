import Button, { ButtonProps } from '@material-ui/core/Button';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import TextField from '@material-ui/core/TextField';
import Tooltip from '@material-ui/core/Tooltip';
import { ReactNode, useEffect, useRef, useState } from 'react';
import { useActionStarted } from './ActionMessage';
import { AttemptKey, useAttemptKey } from './attemptKey';
import { DialogForm } from './DialogForm';
import { ErrorPanel } from './ErrorPanel';
import { NoAnswerNote } from './NoAnswerNote';
import { useSubmission } from './useSubmission';
import { PluginDialog } from './PluginDialog';

let dialogCount = 0;

export interface ConfirmActionButtonProps<T> {
  label: string;
  title: string;
  /** What will happen, shown before the person confirms. */
  children: ReactNode;
  confirmLabel?: string;
  /**
   * Called with the note the person wrote (trimmed; empty without `noteLabel` or a note) and
   * the attempt's Idempotency-Key, the same each time the person confirms the same thing in
   * one opening of the dialog: an action that creates something (a run, a rollback) passes it
   * on, so that confirming again after an error or a lost answer does it once.
   */
  onConfirm: (note: string, attempt: AttemptKey) => Promise<T>;
  /** Called with what `onConfirm` answered, e.g. to say what the action started. */
  onDone?: (result: T) => void;
  disabled?: boolean;
  /** Why the button is disabled, shown on hover and focus: a greyed button says nothing. */
  disabledReason?: string;
  color?: ButtonProps['color'];
  /** The button's accessible name when its label alone does not say what it acts on. */
  ariaLabel?: string;
  /**
   * Text the person must type before confirming (a stack's name before destroying it), so
   * that nothing irreversible happens on a reflex click.
   */
  typedConfirmation?: string;
  /** Offers an optional note under this label, e.g. what a run is for. */
  noteLabel?: string;
  noteHelperText?: string;
  /** The longest note the operation takes. */
  noteMaxLength?: number;
  /**
   * The button that closes the dialog without acting, where "Cancel" would read as the action
   * (beside "Cancel run").
   */
  dismissLabel?: string;
}

/**
 * A button that changes infrastructure: it asks first, then shows the outcome's error if any.
 * While the service does not answer for long, the dialog says so and can be closed: the answer
 * still comes to `onDone` (or, failed, to an alert).
 */
export const ConfirmActionButton = <T,>({
  label,
  title,
  children,
  confirmLabel = label,
  onConfirm,
  onDone,
  disabled,
  disabledReason,
  color = 'primary',
  ariaLabel,
  typedConfirmation,
  noteLabel,
  noteHelperText,
  noteMaxLength = 4000,
  dismissLabel = 'Cancel',
}: ConfirmActionButtonProps<T>) => {
  const [titleId] = useState(() => `confirm-action-${++dialogCount}`);
  const [typed, setTyped] = useState('');
  const [note, setNote] = useState('');
  const [open, setOpenState] = useState(false);
  const shown = useRef(false);
  const setOpen = (next: boolean) => {
    shown.current = next;
    setOpenState(next);
  };
  const actionStarted = useActionStarted();
  const trigger = useRef<HTMLButtonElement>(null);
  // Where focus goes if the action removes this button (a revoked key's row, an approved
  // step's Approve): the card or section around it, captured when the action succeeds.
  const landing = useRef<Element | null>(null);
  useEffect(
    () => () => {
      const scope = landing.current;
      if (!scope) return;
      // After the dialog gave focus back to a button that is gone: focus was on <body>, and a
      // keyboard user started again from the top of the page.
      setTimeout(() => {
        const active = document.activeElement;
        if (active && active !== document.body) return;
        const target =
          (scope.isConnected &&
            scope.querySelector<HTMLElement>('[role="status"]')) ||
          (scope.isConnected ? (scope as HTMLElement) : undefined);
        target?.focus();
      });
    },
    [],
  );
  const attempt = useAttemptKey(note.trim());
  const { busy, error, submit, silentFor } = useSubmission(
    async () => {
      const result = await onConfirm(note.trim(), {
        idempotencyKey: attempt.idempotencyKey,
      });
      landing.current =
        trigger.current?.closest(
          '[role="dialog"], .MuiCard-root, section, main',
        ) ?? null;
      setOpen(false);
      onDone?.(result);
    },
    { what: label, shown: () => shown.current },
  );
  // Closing while the request is under way is offered once the service has been silent long.
  const canClose = !busy || silentFor !== undefined;

  const canConfirm =
    !busy && (typedConfirmation === undefined || typed === typedConfirmation);

  const confirm = () => {
    actionStarted();
    submit();
  };

  const button = (
    <Button
      ref={trigger}
      size="small"
      variant="outlined"
      color={color}
      disabled={disabled}
      aria-label={ariaLabel}
      // Its label stays whole in a squeezed table column ("REMOV / E").
      style={{ whiteSpace: 'nowrap' }}
      onClick={() => {
        setTyped('');
        setNote('');
        attempt.renew();
        setOpen(true);
      }}
    >
      {label}
    </Button>
  );
  return (
    <>
      {disabled && disabledReason ? (
        // A disabled button takes no pointer events: the tooltip hangs on its wrapper.
        <Tooltip title={disabledReason}>
          <span>{button}</span>
        </Tooltip>
      ) : (
        button
      )}
      {/* A form: Enter in its fields confirms, as the button does. */}
      <PluginDialog
        open={open}
        onClose={() => canClose && setOpen(false)}
        aria-labelledby={titleId}
      >
        <DialogForm onSubmit={confirm} canSubmit={canConfirm}>
          <DialogTitle id={titleId}>{title}</DialogTitle>
          <DialogContent>
            {children}
            {noteLabel !== undefined && (
              <TextField
                id={`${titleId}-note`}
                fullWidth
                margin="normal"
                autoComplete="off"
                label={noteLabel}
                helperText={noteHelperText}
                inputProps={{ maxLength: noteMaxLength }}
                value={note}
                onChange={event => setNote(event.target.value)}
              />
            )}
            {typedConfirmation !== undefined && (
              <TextField
                id={`${titleId}-typed`}
                fullWidth
                margin="normal"
                autoComplete="off"
                label={`Type ${typedConfirmation} to confirm`}
                value={typed}
                onChange={event => setTyped(event.target.value)}
              />
            )}
            {error && <ErrorPanel error={error} title={`${label} failed`} />}
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)} disabled={!canClose}>
              {dismissLabel}
            </Button>
            <Button
              type="submit"
              color={color}
              variant="contained"
              disabled={!canConfirm}
            >
              {confirmLabel}
            </Button>
          </DialogActions>
          <NoAnswerNote silentFor={silentFor} />
        </DialogForm>
      </PluginDialog>
    </>
  );
};
