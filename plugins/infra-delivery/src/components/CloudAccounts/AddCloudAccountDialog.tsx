import { useApi } from '@backstage/frontend-plugin-api';
import {
  CloudAccount,
  cloudIdSchema,
  givenIdSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import TextField from '@material-ui/core/TextField';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { CreateDialog } from '../OrganizationSettings/CreateDialog';
import { NameAndIdFields } from '../common/NameAndIdFields';
import { DialogText } from '../common/DialogText';

const EMPTY_FORM = { name: '', givenId: '', cloudId: '' };

/** Each field's label, for what is still empty. */
const LABELS = { name: 'Name', givenId: 'Id', cloudId: 'AWS account id' };

/** A schema's wording ("a 12-digit AWS account id") as the sentence a help line is. */
function sentenceCase(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** What the form needs of the common package's zod schemas. */
type WireSchema = {
  safeParse(value: unknown): { error?: { issues: { message: string }[] } };
};

/**
 * What is wrong with each field of the form, by the service's own schemas: said while the
 * person types, instead of a 400 after they press the button. An empty field is not wrong yet.
 * The schemas' wording ("a 12-digit AWS account id") begins a sentence here.
 */
function formProblems(
  form: typeof EMPTY_FORM,
): Partial<Record<keyof typeof EMPTY_FORM, string>> {
  const problem = (schema: WireSchema, value: string) => {
    const message = value
      ? schema.safeParse(value).error?.issues[0]?.message
      : undefined;
    return message && sentenceCase(message);
  };
  return Object.fromEntries(
    Object.entries({
      givenId: problem(givenIdSchema, form.givenId),
      cloudId: problem(cloudIdSchema, form.cloudId),
    }).filter(([, message]) => message),
  );
}

/**
 * The dialog the Cloud accounts card's Add AWS account opens: the account's name, id and AWS
 * account id. Once added, it closes and `onAdded` goes on to connect the account through
 * CloudFormation.
 */
export const AddCloudAccountDialog = ({
  onAdded,
  onClose,
}: {
  onAdded: (account: CloudAccount) => void;
  onClose: () => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const [form, setForm] = useState(EMPTY_FORM);
  const problems = formProblems(form);
  const missing = (Object.keys(LABELS) as (keyof typeof LABELS)[])
    .filter(field => !form[field].trim())
    .map(field => LABELS[field]);
  // Why the button is greyed, on hover and focus: the empty fields first, then the wrong ones.
  let notReady: string | undefined;
  if (missing.length) notReady = `Fill in first: ${missing.join(', ')}.`;
  else if (Object.keys(problems).length) {
    notReady = 'Correct the fields marked in red first.';
  }

  return (
    <CreateDialog
      title="Add an AWS account"
      submitLabel="Add and connect"
      canSubmit={!notReady}
      disabledReason={notReady}
      errorTitle="The account could not be added"
      intro={
        <DialogText paragraph>
          Once added, the account is connected: a CloudFormation stack you
          launch in it creates the role the portal deploys with.
        </DialogText>
      }
      onCreate={async () => {
        const created = await client.call('createCloudAccount', {
          body: { data: form },
        });
        onAdded(created.data);
      }}
      onClose={onClose}
    >
      {/* The id follows the name until the person writes one, as in every create dialog. */}
      <NameAndIdFields
        idPrefix="cloud-account"
        name={form.name}
        givenId={form.givenId}
        fixedId={false}
        onChange={change => setForm(current => ({ ...current, ...change }))}
        help={{
          name: 'What people call it: Production',
          givenId:
            'Lowercase letters, digits and inner dashes, unique here: production',
        }}
        problems={{ givenId: problems.givenId }}
      />
      <TextField
        id="cloud-account-cloudId"
        name="cloudId"
        label="AWS account id"
        required
        value={form.cloudId}
        error={Boolean(problems.cloudId)}
        helperText={
          problems.cloudId ??
          'The 12 digits the AWS console shows in its account menu, top right'
        }
        onChange={event =>
          setForm(current => ({ ...current, cloudId: event.target.value }))
        }
      />
    </CreateDialog>
  );
};
