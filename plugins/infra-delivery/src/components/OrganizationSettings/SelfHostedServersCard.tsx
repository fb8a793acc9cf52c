import { InfoCard, Link, LinkButton } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import { portalPages } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { useActionMessage } from '../common/ActionMessage';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { CARD_TABLE_OPTIONS, ROW_ACTIONS_STYLE } from '../common/tableOptions';
import { ErrorPanel } from '../common/ErrorPanel';
import { StatusLabel } from '../common/StatusLabel';
import { useInfrastructurePath } from '../common/useInfrastructurePath';
import { useIsOrganizationAdmin } from '../common/useIsOrganizationAdmin';
import { useList } from './useList';
import { CreateForm } from './CreateForm';
import { LoadingTable } from '../common/LoadingTable';
import { CARD_HEADING } from '../common/cardHeading';

const EMPTY_FORM = { name: '', baseUrl: '', clientId: '', clientSecret: '' };

/**
 * Self-hosted GitHub Enterprise servers: each member logs in once, and repositories are then
 * read with their own access. ADMINs register a server with its OAuth app, whose callback URL
 * is shown here to copy.
 */
export const SelfHostedServersCard = () => {
  const client = useApi(infraDeliveryApiRef);
  const { message, say } = useActionMessage();
  const infrastructurePath = useInfrastructurePath();
  const isAdmin = useIsOrganizationAdmin();
  const servers = useList(
    async () =>
      (
        await client.call('listGitSelfHostedServers', {
          query: { limit: 100 },
        })
      ).data,
    [client],
  );
  const [form, setForm] = useState(EMPTY_FORM);
  const callbackUrl = `${window.location.origin}${infrastructurePath}${portalPages.gitForgeLoginCallback}`;

  const register = async () => {
    await client.call('createGitSelfHostedServer', { body: { data: form } });
    setForm(EMPTY_FORM);
    servers.retry();
  };
  const field = (name: keyof typeof EMPTY_FORM, label: string) => (
    <TextField
      id={`self-hosted-server-${name}`}
      name={name}
      label={label}
      type={name === 'clientSecret' ? 'password' : 'text'}
      value={form[name]}
      onChange={event => setForm({ ...form, [name]: event.target.value })}
    />
  );

  return (
    <InfoCard
      titleTypographyProps={CARD_HEADING}
      title="Self-hosted git servers"
    >
      {message}
      {isAdmin && (
        <>
          <Typography variant="body2" paragraph>
            Register a GitHub Enterprise Server with an OAuth app whose callback
            URL is <code>{callbackUrl}</code>.
          </Typography>
          <CreateForm
            submitLabel="Register"
            disabled={Object.values(form).some(value => !value)}
            onSubmit={register}
            errorTitle="Could not register it"
          >
            {field('name', 'Name')}
            {field('baseUrl', 'Server address')}
            {field('clientId', 'OAuth client id')}
            {field('clientSecret', 'OAuth client secret')}
          </CreateForm>
        </>
      )}
      {servers.error && <ErrorPanel error={servers.error} />}
      <LoadingTable
        options={CARD_TABLE_OPTIONS}
        loading={servers.loading && !servers.value}
        loadingLabel="Loading self-hosted servers"
        columns={[
          { title: 'Name', field: 'name' },
          {
            title: 'Address',
            render: server => <Link to={server.baseUrl}>{server.baseUrl}</Link>,
          },
          {
            title: 'Your login',
            render: server => (
              <StatusLabel
                kind={server.loggedIn ? 'ok' : 'pending'}
                label={server.loggedIn ? 'Logged in' : 'Not logged in'}
              />
            ),
          },
          {
            title: 'Actions',
            render: server => (
              <Box style={ROW_ACTIONS_STYLE}>
                <LinkButton
                  variant="outlined"
                  size="small"
                  to={`${infrastructurePath}${portalPages.gitForgeLogin(
                    server.id,
                  )}`}
                  aria-label={`${
                    server.loggedIn ? 'Log in again to' : 'Log in to'
                  } ${server.name}`}
                >
                  {server.loggedIn ? 'Log in again' : 'Log in'}
                </LinkButton>
                {isAdmin && (
                  <ConfirmActionButton
                    label="Remove server"
                    ariaLabel={`Remove server ${server.name}`}
                    color="secondary"
                    title={`Remove ${server.name}?`}
                    onConfirm={() =>
                      client.call('deleteGitSelfHostedServer', {
                        params: { id: server.id },
                      })
                    }
                    onDone={() => {
                      say({ text: `${server.name} is removed.` });
                      servers.retry();
                    }}
                  >
                    <Typography>
                      Every member's login to it is deleted.
                    </Typography>
                  </ConfirmActionButton>
                )}
              </Box>
            ),
          },
        ]}
        data={servers.items}
        emptyContent={
          <Box padding={2}>
            <Typography>No self-hosted git servers registered.</Typography>
          </Box>
        }
      />
    </InfoCard>
  );
};
