import { CodeSource } from '@infra-delivery/plugin-infra-delivery-common';
import Button from '@material-ui/core/Button';
import { useState } from 'react';
import { ConnectCodeSourceDialog } from './ConnectCodeSourceDialog';

/** "Connect repository", and the dialog it opens; `onConnected` once the service connected one. */
export const ConnectCodeSourceButton = ({
  onConnected,
}: {
  onConnected: (connected: CodeSource) => void;
}) => {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        color="primary"
        variant="contained"
        size="small"
        onClick={() => setOpen(true)}
      >
        Connect repository
      </Button>
      {open && (
        <ConnectCodeSourceDialog
          onClose={connected => {
            setOpen(false);
            if (connected) onConnected(connected);
          }}
        />
      )}
    </>
  );
};
