import { givenIdSchema } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import TextField from '@material-ui/core/TextField';
import { ReactNode, useState } from 'react';
import { useActionStarted } from '../common/ActionMessage';
import { ErrorPanel } from '../common/ErrorPanel';
import { FormDialog } from '../common/FormDialog';
import { NameAndIdFields } from '../common/NameAndIdFields';
import { useSubmission } from '../common/useSubmission';
import { refusedFieldsOf } from '../Modules/refusedFields';
import { DialogText } from '../common/DialogText';

/** What a project or an environment is named by: the three fields of its create request. */
export interface NamedFields {
  name: string;
  givenId: string;
  description: string;
}

type Field = keyof NamedFields;

/** What the dialog sends: every field for a new one, only what changed for an existing one. */
export type NamedChanges = Partial<NamedFields>;

/**
 * Asks for a project's or an environment's name, its id (following the name until the person
 * writes one; fixed once created, since stacks and templates name it) and what it is for, then
 * sends them with `save`. An id the service knows already, or a field it refuses, is said beside
 * the field.
 */
export const NamedResourceDialog = ({
  title,
  submitLabel,
  failureTitle,
  intro,
  existing,
  examples,
  save,
  onClose,
}: {
  title: string;
  submitLabel: string;
  /** Above what the service answered when it refused for no one field. */
  failureTitle: string;
  intro: ReactNode;
  /** The project or environment to change; a new one without it. */
  existing?: { name: string; givenId: string; description?: string };
  /** Examples in the fields' help: a name and its id. */
  examples: { name: string; givenId: string };
  save: (changes: NamedChanges) => Promise<unknown>;
  /** Whether something was saved. */
  onClose: (saved: boolean) => void;
}) => {
  const actionStarted = useActionStarted();
  const before: NamedFields = {
    name: existing?.name ?? '',
    givenId: existing?.givenId ?? '',
    description: existing?.description ?? '',
  };
  const [fields, setFields] = useState(before);
  const set = (field: Field, value: string) =>
    setFields(current => ({ ...current, [field]: value }));

  const changes: NamedChanges = existing
    ? {
        ...(fields.name.trim() !== before.name && {
          name: fields.name.trim(),
        }),
        ...(fields.description.trim() !== before.description && {
          description: fields.description.trim(),
        }),
      }
    : {
        name: fields.name.trim(),
        givenId: fields.givenId,
        ...(fields.description.trim() && {
          description: fields.description.trim(),
        }),
      };

  const { busy, error, submit, silentFor } = useSubmission(async () => {
    actionStarted();
    await save(changes);
    onClose(true);
  });

  const givenIdProblem =
    fields.givenId && !existing
      ? givenIdSchema.safeParse(fields.givenId).error?.issues[0]?.message
      : undefined;
  const refused = refusedFieldsOf(error, ['name', 'givenId', 'description'], {
    GIVEN_ID_TAKEN: 'givenId',
  });
  const problemOf = (field: Field) =>
    field === 'givenId' ? givenIdProblem ?? refused?.givenId : refused?.[field];
  const complete =
    Boolean(fields.name.trim() && fields.givenId) &&
    !givenIdProblem &&
    Object.keys(changes).length > 0;

  return (
    <FormDialog
      title={title}
      submitLabel={submitLabel}
      canSubmit={complete}
      busy={busy}
      silentFor={silentFor}
      onSubmit={submit}
      onClose={() => onClose(false)}
    >
      <DialogText paragraph>{intro}</DialogText>
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        <NameAndIdFields
          idPrefix="named-resource"
          name={fields.name}
          givenId={fields.givenId}
          fixedId={Boolean(existing)}
          onChange={change => setFields(current => ({ ...current, ...change }))}
          help={{
            name: `What people call it: ${examples.name}`,
            givenId: existing
              ? 'Stacks and templates name it by its id: it stays'
              : `Lowercase letters, digits and inner dashes, unique here: ${examples.givenId}`,
          }}
          problems={{
            name: problemOf('name'),
            givenId: problemOf('givenId'),
          }}
        />
        <TextField
          id="named-resource-description"
          label="Description"
          multiline
          minRows={2}
          value={fields.description}
          error={Boolean(problemOf('description'))}
          helperText={problemOf('description') ?? 'What it is for'}
          onChange={event => set('description', event.target.value)}
        />
      </Box>
      {error && !refused && <ErrorPanel error={error} title={failureTitle} />}
    </FormDialog>
  );
};
