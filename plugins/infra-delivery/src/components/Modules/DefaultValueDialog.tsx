import { useApi } from '@backstage/frontend-plugin-api';
import {
  DefaultValueDefinition,
  givenIdSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import TextField from '@material-ui/core/TextField';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { useActionStarted } from '../common/ActionMessage';
import { ErrorPanel } from '../common/ErrorPanel';
import { FormDialog } from '../common/FormDialog';
import { NameAndIdFields } from '../common/NameAndIdFields';
import { useSubmission } from '../common/useSubmission';
import {
  DefaultValueField,
  DefaultValueFields,
  EMPTY_FIELDS,
  fieldsOf,
  refusedDefaultValueFieldsOf,
  schemaOf,
  valueProblemOf,
} from './defaultValueForm';
import { DialogText } from '../common/DialogText';

/**
 * Adds a default value (`POST /default-value-definitions`), or changes one (`PATCH`, sending
 * only what changed): its name, its id (following the name until the person writes one; fixed
 * once added, since module inputs name it), the value, the values it may take, and what it is
 * for. A value its own allowed values or patterns refuse is said while typing; what the service
 * refuses is said beside the field it names.
 */
export const DefaultValueDialog = ({
  definition,
  onClose,
}: {
  /** The definition to change; a new one without it. */
  definition?: DefaultValueDefinition;
  /** With the definition saved, or nothing when the person cancelled. */
  onClose: (saved?: DefaultValueDefinition) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const actionStarted = useActionStarted();
  const [fields, setFields] = useState<DefaultValueFields>(
    definition ? fieldsOf(definition) : EMPTY_FIELDS,
  );
  const set = (field: DefaultValueField, value: string) =>
    setFields(current => ({ ...current, [field]: value }));

  const schema = schemaOf(fields, definition);
  const before = definition && fieldsOf(definition);
  const changed = (field: DefaultValueField) =>
    !before || fields[field].trim() !== before[field].trim();
  const schemaChanged = changed('value') || changed('allowedValues');
  const patch = {
    ...(changed('name') && { name: fields.name.trim() }),
    ...(changed('description') && { description: fields.description.trim() }),
    ...((schemaChanged || (changed('name') && definition)) && { schema }),
  };

  const {
    busy,
    silentFor,
    error,
    submit: save,
  } = useSubmission(async () => {
    actionStarted();
    const saved = definition
      ? await client.call('updateDefaultValueDefinition', {
          params: { id: definition.id },
          body: { data: patch },
        })
      : await client.call('createDefaultValueDefinition', {
          body: {
            data: {
              givenId: fields.givenId,
              name: fields.name.trim(),
              schema,
              ...(fields.description.trim() && {
                description: fields.description.trim(),
              }),
            },
          },
        });
    onClose(saved.data);
  });

  const problems: Partial<Record<DefaultValueField, string>> = {
    givenId:
      fields.givenId && !definition
        ? givenIdSchema.safeParse(fields.givenId).error?.issues[0]?.message
        : undefined,
    value: valueProblemOf(fields, definition),
  };
  const refused = refusedDefaultValueFieldsOf(error);
  const problemOf = (field: DefaultValueField) =>
    problems[field] ?? refused?.[field];
  const complete =
    Boolean(fields.name.trim() && fields.givenId) &&
    !problems.givenId &&
    !problems.value &&
    Object.keys(patch).length > 0;

  return (
    <FormDialog
      title={definition ? `Edit ${definition.name}` : 'Add a default value'}
      submitLabel={definition ? 'Save the changes' : 'Add the default value'}
      canSubmit={complete}
      busy={busy}
      silentFor={silentFor}
      onSubmit={save}
      onClose={onClose}
    >
      <DialogText paragraph>
        A module input that names this default value by its id (default_from in
        its module.yaml) takes the value when an instance gives none. Instances
        made already keep the values they were made with.
      </DialogText>
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        <NameAndIdFields
          idPrefix="default-value"
          name={fields.name}
          givenId={fields.givenId}
          fixedId={Boolean(definition)}
          onChange={change => setFields(current => ({ ...current, ...change }))}
          help={{
            name: 'What people call it: AWS region',
            givenId: definition
              ? 'Module inputs name it in default_from: it stays'
              : 'What module inputs name in default_from; lowercase, unique in the organization: aws-region',
          }}
          problems={{
            name: problemOf('name'),
            givenId: problemOf('givenId'),
          }}
        />
        <TextField
          id="default-value-value"
          label="Value"
          value={fields.value}
          error={Boolean(problemOf('value'))}
          helperText={
            problemOf('value') ??
            'Empty: inputs that name it fall back on their own default'
          }
          onChange={event => set('value', event.target.value)}
        />
        <TextField
          id="default-value-allowed-values"
          label="Allowed values"
          multiline
          minRows={2}
          value={fields.allowedValues}
          error={Boolean(problemOf('allowedValues'))}
          helperText={
            problemOf('allowedValues') ?? 'One per line; empty allows any value'
          }
          onChange={event => set('allowedValues', event.target.value)}
        />
        <TextField
          id="default-value-description"
          label="Description"
          multiline
          minRows={2}
          value={fields.description}
          error={Boolean(problemOf('description'))}
          helperText={problemOf('description') ?? 'What it is for'}
          onChange={event => set('description', event.target.value)}
        />
      </Box>
      {error && !refused && (
        <ErrorPanel
          error={error}
          title={
            definition
              ? `${definition.name} could not be changed`
              : 'The default value could not be added'
          }
        />
      )}
    </FormDialog>
  );
};
