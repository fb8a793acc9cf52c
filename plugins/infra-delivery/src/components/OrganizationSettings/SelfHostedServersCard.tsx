import { Link, LinkButton } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import { portalPages } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { useActionMessage } from '../common/ActionMessage';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { CARD_TABLE_OPTIONS, ROW_ACTIONS_STYLE } from '../common/tableOptions';
import { LoadNotes } from '../common/LoadNotes';
import { StatusLabel } from '../common/StatusLabel';
import { useInfrastructurePath } from '../common/useInfrastructurePath';
import { useIsOrganizationAdmin } from '../common/useIsOrganizationAdmin';
import { useList } from './useList';
import { RegisterServerDialog } from './RegisterServerDialog';
import { LoadingTable } from '../common/LoadingTable';
import { TableCard } from '../common/TableCard';
import { CardBody } from '../common/CardBody';

/**
 * Self-hosted GitHub Enterprise servers: each member logs in once, and repositories are then
 * read with their own access. ADMINs register a server with its OAuth app, whose callback URL
 * is shown in the dialog that registers it.
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
  const [registering, setRegistering] = useState(false);
  const callbackUrl = `${window.location.origin}${infrastructurePath}${portalPages.gitForgeLoginCallback}`;

  return (
    <TableCard
      title="Self-hosted git servers"
      subheader="GitHub Enterprise Servers: each member logs in once, and repositories are read with their own access."
      action={
        isAdmin && (
          <Button
            variant="contained"
            color="primary"
            size="small"
            onClick={() => setRegistering(true)}
          >
            Register server
          </Button>
        )
      }
      notes={
        <>
          {message}
          <LoadNotes state={servers} />
        </>
      }
    >
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
          <CardBody>
            <Typography>
              No self-hosted git server is registered.
              {isAdmin
                ? ' Register a GitHub Enterprise Server to read its repositories.'
                : ' An organization admin registers them.'}
            </Typography>
          </CardBody>
        }
      />
      {registering && (
        <RegisterServerDialog
          callbackUrl={callbackUrl}
          onClose={() => setRegistering(false)}
          onRegistered={server => {
            say({
              text: `${server.name} is registered: log in to it from its row.`,
            });
            servers.retry();
          }}
        />
      )}
    </TableCard>
  );
};
