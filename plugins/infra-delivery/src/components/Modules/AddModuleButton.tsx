import { ModuleDefinition } from '@infra-delivery/plugin-infra-delivery-common';
import Button from '@material-ui/core/Button';
import { useState } from 'react';
import { AddModuleDialog } from './AddModuleDialog';

/** "Add module", and the dialog it opens; `onAdded` once the service added one. */
export const AddModuleButton = ({
  onAdded,
}: {
  onAdded: (added: ModuleDefinition) => void;
}) => {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="contained"
        color="primary"
        size="small"
        onClick={() => setOpen(true)}
      >
        Add module
      </Button>
      {open && (
        <AddModuleDialog
          onClose={added => {
            setOpen(false);
            if (added) onAdded(added);
          }}
        />
      )}
    </>
  );
};
