import { useApi } from '@backstage/frontend-plugin-api';
import { ModuleDefinition } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import TextField from '@material-ui/core/TextField';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { ErrorPanel } from '../common/ErrorPanel';
import { FormDialog } from '../common/FormDialog';
import { useSubmission } from '../common/useSubmission';
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
  const [name, setName] = useState(module.name);
  const [description, setDescription] = useState(module.description ?? '');

  const change = {
    ...(name.trim() !== module.name && { name: name.trim() }),
    ...(description.trim() !== (module.description ?? '') && {
      description: description.trim(),
    }),
  };
  const {
    busy,
    silentFor,
    error,
    submit: save,
  } = useSubmission(async () => {
    const changed = await client.call('updateModuleDefinition', {
      params: { id: module.id },
      body: { data: change },
    });
    onClose(changed.data);
  });
  const refused = refusedFieldsOf(error, ['name', 'description']);
  const complete = Boolean(name.trim()) && Object.keys(change).length > 0;

  return (
    <FormDialog
      title={`Edit ${module.name}`}
      submitLabel="Save the changes"
      canSubmit={complete}
      busy={busy}
      silentFor={silentFor}
      onSubmit={save}
      onClose={onClose}
    >
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
    </FormDialog>
  );
};
