import { Content, InfoCard } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import { TABLE_OPTIONS } from '../common/tableOptions';
import {
  CloudAccount,
  cloudIdSchema,
  givenIdFromName,
  givenIdSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import Button from '@material-ui/core/Button';
import TextField from '@material-ui/core/TextField';
import { useState } from 'react';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { infraDeliveryApiRef } from '../../api';
import { ErrorPanel } from '../common/ErrorPanel';
import { StatusLabel } from '../common/StatusLabel';
import { ConnectDialog } from './ConnectDialog';
import { LoadingTable } from '../common/LoadingTable';

const AccountStatus = ({ account }: { account: CloudAccount }) => {
  if (account.status !== 'CONNECTED') {
    return <StatusLabel kind="pending" label="Awaiting connection" />;
  }
  if (account.roleVersion !== account.latestRoleVersion) {
    return (
      <StatusLabel
        kind="warning"
        label={`Upgrade to ${account.latestRoleVersion} available`}
      />
    );
  }
  return <StatusLabel kind="ok" label="Connected" />;
};

const EMPTY_FORM = { name: '', givenId: '', cloudId: '' };

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

/** The organization's AWS accounts: create, connect through CloudFormation, upgrade. */
export const CloudAccountsPage = () => {
  const client = useApi(infraDeliveryApiRef);
  const accounts = useReloadableAsync(
    async () =>
      (await client.call('listCloudAccounts', { query: { limit: 500 } })).data,
    [client],
  );
  const [form, setForm] = useState(EMPTY_FORM);
  // The id follows the name until the person writes one of their own.
  const [givenIdEdited, setGivenIdEdited] = useState(false);
  const [error, setError] = useState<Error>();
  const problems = formProblems(form);
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
  const [connecting, setConnecting] = useState<CloudAccount>();

  const create = async () => {
    setError(undefined);
    try {
      const created = await client.call('createCloudAccount', {
        body: { data: form },
      });
      setForm(EMPTY_FORM);
      setGivenIdEdited(false);
      accounts.retry();
      setConnecting(created.data);
    } catch (e) {
      setError(e as Error);
    }
  };

  return (
    <Content>
      <InfoCard title="Add an AWS account">
        {/* Every field keeps a line under it for what is wrong with it: the button lines up
            with the inputs, not with those lines. */}
        <Box display="flex" alignItems="flex-start" style={{ gap: 16 }}>
          {(
            [
              ['name', 'Name'],
              ['givenId', 'Id (lowercase)'],
              ['cloudId', 'AWS account id'],
            ] as const
          ).map(([field, label]) => (
            <TextField
              key={field}
              id={`cloud-account-${field}`}
              label={label}
              value={form[field]}
              error={Boolean(problems[field])}
              helperText={problems[field] ?? ' '}
              onChange={event => change(field, event.target.value)}
            />
          ))}
          <Button
            variant="contained"
            color="primary"
            style={{ marginTop: 12 }}
            onClick={create}
            disabled={
              !form.name.trim() ||
              !form.givenId ||
              !form.cloudId ||
              Object.keys(problems).length > 0
            }
          >
            Add and connect
          </Button>
        </Box>
        {error && (
          <ErrorPanel error={error} title="The account could not be added" />
        )}
      </InfoCard>
      <Box mt={3}>
        {accounts.error && <ErrorPanel error={accounts.error} />}
        <LoadingTable
          title="Cloud accounts"
          loading={accounts.loading && !accounts.value}
          loadingLabel="Loading cloud accounts"
          options={TABLE_OPTIONS}
          columns={[
            { title: 'Name', field: 'name' },
            { title: 'AWS account', field: 'cloudId' },
            { title: 'Status', render: a => <AccountStatus account={a} /> },
            { title: 'Role', render: a => a.cloudRef ?? '—' },
            {
              title: 'Actions',
              sorting: false,
              render: a =>
                a.status !== 'CONNECTED' ||
                a.roleVersion !== a.latestRoleVersion ? (
                  <Button
                    size="small"
                    variant="outlined"
                    onClick={() => setConnecting(a)}
                  >
                    {a.status === 'CONNECTED' ? 'Upgrade' : 'Connect'}
                  </Button>
                ) : null,
            },
          ]}
          data={accounts.value ?? []}
          emptyContent={
            <Box padding={2}>
              <Typography>
                No cloud account yet: add the first one above.
              </Typography>
            </Box>
          }
        />
      </Box>
      {connecting && (
        <ConnectDialog
          account={connecting}
          onClose={changed => {
            setConnecting(undefined);
            if (changed) accounts.retry();
          }}
        />
      )}
    </Content>
  );
};
