import Button, { ButtonProps } from '@material-ui/core/Button';
import { useState } from 'react';
import { ConnectRunnerDialog } from './ConnectRunnerDialog';

/** Opens the dialog that connects a runner; shown to organization admins only. */
export const ConnectRunnerButton = ({
  onConnected,
  variant = 'contained',
}: {
  onConnected?: () => void;
  variant?: ButtonProps['variant'];
}) => {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        color="primary"
        variant={variant}
        size="small"
        onClick={() => setOpen(true)}
      >
        Connect a runner
      </Button>
      {open && (
        <ConnectRunnerDialog
          onClose={connected => {
            setOpen(false);
            if (connected) onConnected?.();
          }}
        />
      )}
    </>
  );
};
