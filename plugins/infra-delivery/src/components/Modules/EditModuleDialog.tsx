import { useApi } from '@backstage/frontend-plugin-api';
import { ModuleDefinition } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import TextField from '@material-ui/core/TextField';
import { useId, useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { DialogForm } from '../common/DialogForm';
import { ErrorPanel } from '../common/ErrorPanel';
import { refusedFieldsOf } from './refusedFields';

/**
 * Renames or describes a module (`PATCH /module-definitions/{id}`), sending only what
 * changed. Its id, repository and directory stay: versions were read there.
 */
export const EditModuleDialog = ({
  module,
  onClose,
}: {
  module: ModuleDefinition;
  /** With the module changed, or nothing when the person cancelled. */
  onClose: (changed?: ModuleDefinition) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const titleId = useId();
  const [name, setName] = useState(module.name);
  const [description, setDescription] = useState(module.description ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();

  const change = {
    ...(name.trim() !== module.name && { name: name.trim() }),
    ...(description.trim() !== (module.description ?? '') && {
      description: description.trim(),
    }),
  };
  const refused = refusedFieldsOf(error, ['name', 'description']);
  const complete = Boolean(name.trim()) && Object.keys(change).length > 0;

  const save = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const changed = await client.call('updateModuleDefinition', {
        params: { id: module.id },
        body: { data: change },
      });
      onClose(changed.data);
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={() => !busy && onClose()}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
    >
      <DialogForm onSubmit={save} canSubmit={complete && !busy}>
        <DialogTitle id={titleId}>Edit {module.name}</DialogTitle>
        <DialogContent>
          <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
            <TextField
              id="edit-module-name"
              label="Name"
              required
              value={name}
              error={Boolean(refused?.name)}
              helperText={refused?.name ?? `Its id stays ${module.givenId}`}
              onChange={event => setName(event.target.value)}
            />
            <TextField
              id="edit-module-description"
              label="Description"
              multiline
              minRows={2}
              value={description}
              error={Boolean(refused?.description)}
              helperText={refused?.description ?? 'What it provides'}
              onChange={event => setDescription(event.target.value)}
            />
          </Box>
          {error && !refused && (
            <ErrorPanel error={error} title="The module could not be changed" />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => onClose()} disabled={busy}>
            Cancel
          </Button>
          <Button
            type="submit"
            color="primary"
            variant="contained"
            disabled={!complete || busy}
          >
            Save the changes
          </Button>
        </DialogActions>
      </DialogForm>
    </Dialog>
  );
};
