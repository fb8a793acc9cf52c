import Button, { ButtonProps } from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import { ReactNode, useState } from 'react';
import { ErrorPanel } from './ErrorPanel';

export interface ConfirmActionButtonProps {
  label: string;
  title: string;
  /** What will happen, shown before the person confirms. */
  children: ReactNode;
  confirmLabel?: string;
  onConfirm: () => Promise<unknown>;
  onDone?: () => void;
  disabled?: boolean;
  color?: ButtonProps['color'];
}

/** A button that changes infrastructure: it asks first, then shows the outcome's error if any. */
export const ConfirmActionButton = ({
  label,
  title,
  children,
  confirmLabel = label,
  onConfirm,
  onDone,
  disabled,
  color = 'primary',
}: ConfirmActionButtonProps) => {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();

  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
      setOpen(false);
      onDone?.();
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        size="small"
        variant="outlined"
        color={color}
        disabled={disabled}
        onClick={() => setOpen(true)}
      >
        {label}
      </Button>
      <Dialog open={open} onClose={() => !busy && setOpen(false)}>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          {children}
          {error && <ErrorPanel error={error} title={`${label} failed`} />}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={busy}>
            Cancel
          </Button>
          <Button
            onClick={confirm}
            color={color}
            variant="contained"
            disabled={busy}
          >
            {confirmLabel}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
};
