import { InfoCard } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  CloudAccount,
  cloudIdSchema,
  givenIdFromName,
  givenIdSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import TextField from '@material-ui/core/TextField';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { ButtonWithReason } from '../common/ButtonWithReason';
import { ErrorPanel } from '../common/ErrorPanel';
import { CARD_HEADING } from '../common/cardHeading';

const EMPTY_FORM = { name: '', givenId: '', cloudId: '' };

/** Each field: its label, and the hint under it until something is wrong with it. */
const FIELDS = [
  ['name', 'Name', 'What people call it: Production'],
  ['givenId', 'Id', 'Lowercase: production'],
  ['cloudId', 'AWS account id', '12 digits'],
] as const;

/** What the form needs of the common package's zod schemas. */
type WireSchema = {
  safeParse(value: unknown): { error?: { issues: { message: string }[] } };
};

/**
 * What is wrong with each field of the form, by the service's own schemas: said while the
 * person types, instead of a 400 after they press the button. An empty field is not wrong yet.
 */
function formProblems(
  form: typeof EMPTY_FORM,
): Partial<Record<keyof typeof EMPTY_FORM, string>> {
  const problem = (schema: WireSchema, value: string) =>
    value ? schema.safeParse(value).error?.issues[0]?.message : undefined;
  return Object.fromEntries(
    Object.entries({
      givenId: problem(givenIdSchema, form.givenId),
      cloudId: problem(cloudIdSchema, form.cloudId),
    }).filter(([, message]) => message),
  );
}

/** The form that adds an AWS account to the organization; connecting it comes next. */
export const AddCloudAccountCard = ({
  onAdded,
}: {
  onAdded: (account: CloudAccount) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const [form, setForm] = useState(EMPTY_FORM);
  // The id follows the name until the person writes one of their own.
  const [givenIdEdited, setGivenIdEdited] = useState(false);
  const [error, setError] = useState<Error>();
  const problems = formProblems(form);
  const missing = FIELDS.filter(([field]) => !form[field].trim()).map(
    ([, label]) => label,
  );
  // Why the button is greyed, on hover and focus: the empty fields first, then the wrong ones.
  let notReady: string | undefined;
  if (missing.length) notReady = `Fill in first: ${missing.join(', ')}.`;
  else if (Object.keys(problems).length) {
    notReady = 'Correct the fields marked in red first.';
  }
  const change = (field: keyof typeof EMPTY_FORM, value: string) => {
    if (field === 'givenId') setGivenIdEdited(true);
    setForm({
      ...form,
      [field]: value,
      ...(field === 'name' && !givenIdEdited
        ? { givenId: value.trim() ? givenIdFromName(value, '') : '' }
        : {}),
    });
  };

  const create = async () => {
    setError(undefined);
    try {
      const created = await client.call('createCloudAccount', {
        body: { data: form },
      });
      setForm(EMPTY_FORM);
      setGivenIdEdited(false);
      onAdded(created.data);
    } catch (e) {
      setError(e as Error);
    }
  };

  return (
    <InfoCard titleTypographyProps={CARD_HEADING} title="Add an AWS account">
      {/* Every field has a line under it, a hint or what is wrong with it: the button lines
          up with the inputs, not with those lines. */}
      {/* In a narrow window the fields wrap onto lines of their own instead of squeezing
          their labels over each other. */}
      <Box
        display="flex"
        flexWrap="wrap"
        alignItems="flex-start"
        style={{ gap: 16 }}
      >
        {FIELDS.map(([field, label, hint]) => (
          <TextField
            key={field}
            id={`cloud-account-${field}`}
            label={label}
            value={form[field]}
            error={Boolean(problems[field])}
            helperText={problems[field] ?? hint}
            onChange={event => change(field, event.target.value)}
          />
        ))}
        <ButtonWithReason
          variant="contained"
          color="primary"
          style={{ marginTop: 12, whiteSpace: 'nowrap', flexShrink: 0 }}
          onClick={create}
          disabled={Boolean(notReady)}
          disabledReason={notReady}
        >
          Add and connect
        </ButtonWithReason>
      </Box>
      {error && (
        <ErrorPanel error={error} title="The account could not be added" />
      )}
    </InfoCard>
  );
};
