import { Progress } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  DefaultValueDefinition,
  ModuleInput,
  ModuleInstance,
  ModuleVersion,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { ErrorPanel } from '../common/ErrorPanel';
import { FormDialog } from '../common/FormDialog';
import { useSubmission } from '../common/useSubmission';
import { fieldErrorsOf } from '../OrganizationSettings/fieldErrors';
import {
  changedValues,
  droppedValues,
  givenValues,
  needsValue,
  valueErrorsOf,
  valueProblem,
} from './moduleValues';
import { useEnvironmentChoices } from './useEnvironmentChoices';
import { ModuleValueField } from './ModuleValueField';
import { ErrorText, WarningText } from '../common/WarningText';
import { DialogText } from '../common/DialogText';

/**
 * Deploys a version of a module into an environment (`POST /module-instances`), or changes an
 * instance (`PATCH /module-instances/{id}`): its name, where it goes, which version, and a field
 * per input of that version. The inputs' own rules are checked while the person types; what the
 * service still refuses is said beside the field it names. A changed instance stays in its
 * environment, and an input fixed once set keeps its value.
 */
export const ModuleInstanceDialog = ({
  moduleName,
  versions,
  defaults,
  instance,
  onClose,
}: {
  moduleName: string;
  /** Newest first: the first is offered for a new instance. */
  versions: ModuleVersion[];
  defaults: Map<string, DefaultValueDefinition>;
  /** The instance to change; a new one without it. */
  instance?: ModuleInstance;
  /** With the instance created or changed, or nothing when the person cancelled. */
  onClose: (saved?: ModuleInstance) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const environments = useEnvironmentChoices();
  const [name, setName] = useState(instance?.name ?? '');
  const [environmentId, setEnvironmentId] = useState(
    instance?.environmentId ?? '',
  );
  const [versionId, setVersionId] = useState(
    instance?.moduleVersionId ?? versions[0]?.id ?? '',
  );
  const [values, setValues] = useState<Record<string, string>>(
    instance?.values ?? {},
  );

  const version = versions.find(v => v.id === versionId);
  const inputs = version?.inputs ?? [];
  const valueOf = (input: ModuleInput) => values[input.id] ?? '';
  /** An input fixed once set, set on the instance: its field cannot change it. */
  const fixed = (input: ModuleInput) =>
    Boolean(input.immutable && instance?.values[input.id] !== undefined);
  const problems = Object.fromEntries(
    inputs.flatMap(input => {
      const problem = valueProblem(input, valueOf(input));
      return problem ? [[input.id, problem]] : [];
    }),
  );
  // Another version may not take every value the instance has: say which go.
  const dropped = instance ? droppedValues(instance.values, inputs) : [];
  // Of those, the values fixed once set: the service keeps them, so the instance stays.
  const currentInputs =
    versions.find(v => v.id === instance?.moduleVersionId)?.inputs ?? [];
  const droppedFixed = dropped.filter(([id]) =>
    currentInputs.some(input => input.id === id && input.immutable),
  );
  const valueChanges =
    instance &&
    changedValues(
      inputs.filter(input => !fixed(input)).map(input => input.id),
      values,
      instance.values,
    );
  const change = instance && {
    ...(name.trim() !== instance.name && { name: name.trim() }),
    ...(versionId !== instance.moduleVersionId && {
      moduleVersionId: versionId,
    }),
    ...(valueChanges && { values: valueChanges }),
  };
  const complete =
    Boolean(name.trim() && environmentId && version) &&
    inputs.every(
      input => !needsValue(input, defaults) || valueOf(input).trim(),
    ) &&
    Object.keys(problems).length === 0 &&
    droppedFixed.length === 0 &&
    (!change || Object.keys(change).length > 0);

  const {
    busy,
    silentFor,
    error,
    submit: save,
  } = useSubmission(async () => {
    const saved = instance
      ? await client.call('updateModuleInstance', {
          params: { id: instance.id },
          body: { data: change! },
        })
      : await client.call('createModuleInstance', {
          body: {
            data: {
              name: name.trim(),
              environmentId,
              moduleVersionId: versionId,
              // Only this version's inputs: values typed for another version are not sent.
              values: givenValues(
                Object.fromEntries(inputs.map(i => [i.id, valueOf(i)])),
              ),
            },
          },
        });
    onClose(saved.data);
  });
  const refused = valueErrorsOf(
    error,
    inputs.map(input => input.id),
  );
  const nameError = fieldErrorsOf(error, ['name'])?.name;
  return (
    <FormDialog
      title={
        instance ? `Change ${instance.name}` : `New instance of ${moduleName}`
      }
      submitLabel={instance ? 'Save the changes' : 'Create the instance'}
      canSubmit={complete}
      busy={busy}
      silentFor={silentFor}
      onSubmit={save}
      onClose={onClose}
    >
      <DialogText paragraph>
        {instance
          ? `Another version of ${moduleName}, or other values, for this instance.`
          : 'An instance is a version of the module chosen for an environment, with its values.'}
      </DialogText>
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        <TextField
          id="module-instance-name"
          label="Name"
          required
          value={name}
          error={Boolean(nameError)}
          helperText={nameError ?? 'What people call it: payments-network'}
          onChange={event => setName(event.target.value)}
        />
        {environments.loading && <Progress />}
        {environments.error && (
          <ErrorPanel
            error={environments.error}
            title="The environments could not be read"
          />
        )}
        {environments.value && (
          <TextField
            id="module-instance-environment"
            select
            required
            label="Environment"
            value={environmentId}
            disabled={Boolean(instance)}
            helperText={
              (instance && 'An instance stays in its environment') ||
              (environments.value.length === 0
                ? 'No environment yet: add one to a project on the Organization tab'
                : undefined)
            }
            onChange={event => setEnvironmentId(event.target.value)}
          >
            {environments.value.map(choice => (
              <MenuItem key={choice.id} value={choice.id}>
                {choice.label}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField
          id="module-instance-version"
          select
          required
          label="Version"
          value={versionId}
          onChange={event => setVersionId(event.target.value)}
        >
          {versions.map((v, index) => (
            <MenuItem key={v.id} value={v.id}>
              {v.version} ({v.ref})
              {instance && v.id === instance.moduleVersionId && ' · current'}
              {instance &&
                index === 0 &&
                v.id !== instance.moduleVersionId &&
                ' · newest'}
            </MenuItem>
          ))}
        </TextField>
        {droppedFixed.length > 0 && (
          <DialogText role="status">
            <ErrorText>
              Version {version?.version} does not take{' '}
              {droppedFixed.map(([id, value]) => `${id} (${value})`).join(', ')}
              , fixed once set: the instance cannot move to it.
            </ErrorText>
          </DialogText>
        )}
        {dropped.length > 0 && droppedFixed.length === 0 && (
          <DialogText role="status">
            <WarningText>
              Version {version?.version} does not take{' '}
              {dropped.map(([id, value]) => `${id} (${value})`).join(', ')}:
              moving the instance to it forgets{' '}
              {dropped.length === 1 ? 'this value' : 'these values'}.
            </WarningText>
          </DialogText>
        )}
        {inputs.length > 0 && (
          <Typography variant="subtitle2" component="h3">
            Values of version {version?.version}
          </Typography>
        )}
        {inputs.map(input => (
          <ModuleValueField
            key={`${versionId}/${input.id}`}
            input={input}
            defaults={defaults}
            value={valueOf(input)}
            problem={problems[input.id] ?? refused?.[input.id]}
            fixed={fixed(input)}
            onChange={value => setValues({ ...values, [input.id]: value })}
          />
        ))}
      </Box>
      {error && !nameError && !refused && (
        <ErrorPanel
          error={error}
          title={
            instance
              ? 'The instance could not be changed'
              : 'The instance could not be created'
          }
        />
      )}
    </FormDialog>
  );
};
