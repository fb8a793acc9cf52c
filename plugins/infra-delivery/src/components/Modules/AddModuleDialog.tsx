import { Progress } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  givenIdFromName,
  givenIdSchema,
  ModuleDefinition,
  normalizeRepositoryPath,
  repositoryPathSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { CodeSourcesCardLink } from '../common/CodeSourcesCardLink';
import { ErrorPanel } from '../common/ErrorPanel';
import { FormDialog } from '../common/FormDialog';
import { useSubmission } from '../common/useSubmission';
import { ModuleYamlStatus } from './ModuleYamlStatus';
import { refusedFieldsOf } from './refusedFields';
import { useCodeSources } from './useCodeSources';
import { DialogText } from '../common/DialogText';

const FIELDS = ['name', 'givenId', 'description', 'codeSourceId', 'path'];

/**
 * Adds a module (`POST /module-definitions`): its name, its id (following the name until the
 * person writes one), what it is for, and the directory of a connected repository that holds
 * its `module.yaml`, which is looked for while they type. What the service refuses is said
 * beside the field it names.
 */
export const AddModuleDialog = ({
  onClose,
}: {
  /** With the module added, or nothing when the person cancelled. */
  onClose: (added?: ModuleDefinition) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const sources = useCodeSources();
  const [name, setName] = useState('');
  const [givenId, setGivenId] = useState('');
  const [givenIdEdited, setGivenIdEdited] = useState(false);
  const [description, setDescription] = useState('');
  const [chosenSourceId, setChosenSourceId] = useState<string>();
  const [path, setPath] = useState('');

  const codeSourceId = chosenSourceId ?? sources.value?.[0]?.id ?? '';
  const source = sources.value?.find(s => s.id === codeSourceId);
  const problems: Record<string, string | undefined> = {
    givenId: givenId
      ? givenIdSchema.safeParse(givenId).error?.issues[0]?.message
      : undefined,
    path: repositoryPathSchema.safeParse(path).error?.issues[0]?.message,
  };
  const {
    busy,
    silentFor,
    error,
    submit: add,
  } = useSubmission(async () => {
    const added = await client.call('createModuleDefinition', {
      body: {
        data: {
          name: name.trim(),
          givenId,
          ...(description.trim() && { description: description.trim() }),
          codeSourceId,
          path: normalizeRepositoryPath(path.trim()),
        },
      },
    });
    onClose(added.data);
  });
  const refused = refusedFieldsOf(error, FIELDS, {
    GIVEN_ID_TAKEN: 'givenId',
  });
  const problemOf = (field: string) => problems[field] ?? refused?.[field];
  const complete =
    Boolean(name.trim() && givenId && codeSourceId) &&
    !problems.givenId &&
    !problems.path;

  return (
    <FormDialog
      title="Add a module"
      submitLabel="Add the module"
      canSubmit={complete}
      busy={busy}
      silentFor={silentFor}
      onSubmit={add}
      onClose={onClose}
    >
      <DialogText paragraph>
        A module is a directory with a module.yaml in a connected repository;
        its versions are released from branches or tags.
      </DialogText>
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        <TextField
          id="add-module-name"
          label="Name"
          required
          value={name}
          error={Boolean(problemOf('name'))}
          helperText={problemOf('name') ?? 'What people call it: VPC'}
          onChange={event => {
            setName(event.target.value);
            if (!givenIdEdited) {
              setGivenId(givenIdFromName(event.target.value, ''));
            }
          }}
        />
        <TextField
          id="add-module-given-id"
          label="Id"
          required
          value={givenId}
          error={Boolean(problemOf('givenId'))}
          helperText={
            problemOf('givenId') ?? 'Lowercase, unique in the organization: vpc'
          }
          onChange={event => {
            setGivenIdEdited(true);
            setGivenId(event.target.value);
          }}
        />
        <TextField
          id="add-module-description"
          label="Description"
          multiline
          minRows={2}
          value={description}
          error={Boolean(problemOf('description'))}
          helperText={problemOf('description') ?? 'What it provides'}
          onChange={event => setDescription(event.target.value)}
        />
        {sources.loading && <Progress />}
        {sources.error && (
          <ErrorPanel
            error={sources.error}
            title="The repositories could not be read"
          />
        )}
        {sources.value?.length === 0 && (
          <DialogText role="status">
            No repository is connected to the organization yet: connect one
            under <CodeSourcesCardLink />, then add the module here.
          </DialogText>
        )}
        {Boolean(sources.value?.length) && (
          <TextField
            id="add-module-repository"
            select
            required
            label="Repository"
            value={codeSourceId}
            error={Boolean(problemOf('codeSourceId'))}
            helperText={problemOf('codeSourceId')}
            onChange={event => setChosenSourceId(event.target.value)}
          >
            {sources.value!.map(s => (
              <MenuItem key={s.id} value={s.id}>
                {s.repoName}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField
          id="add-module-path"
          label="Directory"
          value={path}
          error={Boolean(problemOf('path'))}
          helperText={
            problemOf('path') ??
            'Where its module.yaml is: network/vpc; empty for the repository root'
          }
          onChange={event => setPath(event.target.value)}
        />
        <ModuleYamlStatus source={source} path={path.trim()} />
      </Box>
      {error && !refused && (
        <ErrorPanel error={error} title="The module could not be added" />
      )}
    </FormDialog>
  );
};
