import { TableColumn } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import { ServiceAccount } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { useActionMessage } from '../common/ActionMessage';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { CARD_TABLE_OPTIONS } from '../common/tableOptions';
import { LoadNotes } from '../common/LoadNotes';
import { ROLE_LABELS } from '../common/labels';
import { useCallerRole } from '../common/useCallerRole';
import { useIsOrganizationAdmin } from '../common/useIsOrganizationAdmin';
import { needsAnOwner } from './ownersOnly';
import { CreateServiceAccountDialog } from './CreateServiceAccountDialog';
import { useList } from './useList';
import { LoadingTable } from '../common/LoadingTable';
import { OnlineRunnersWarning } from '../Runners/OnlineRunnersWarning';
import { TableCard } from '../common/TableCard';
import { CardBody } from '../common/CardBody';
import { CopyIdButton } from '../common/CopyIdButton';

/** Service accounts for runners and automation. */
export const ServiceAccountsCard = ({
  version,
  onChanged,
}: {
  /** Changes when service accounts were created elsewhere on the page (Connect a runner). */
  version: number;
  onChanged: () => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const { message, say } = useActionMessage();
  const accounts = useList(
    async () =>
      (await client.call('listServiceAccounts', { query: { limit: 500 } }))
        .data,
    [client, version],
  );
  const isAdmin = useIsOrganizationAdmin();
  const { role: callerRole } = useCallerRole();
  const [creating, setCreating] = useState(false);

  const columns: TableColumn<ServiceAccount>[] = [
    {
      title: 'Name',
      field: 'name',
      // The id is what the API takes as an API key's ownerId: a button copies it. Shown in
      // full under each name, 36 characters of UUID read as what people should look at.
      render: account => (
        <Box display="flex" alignItems="center" style={{ gap: 4 }}>
          <Typography variant="body2">{account.name}</Typography>
          <CopyIdButton id={account.id} of={account.name} />
        </Box>
      ),
    },
    { title: 'Role', render: account => ROLE_LABELS[account.role] },
  ];
  if (isAdmin) {
    columns.push({
      title: 'Actions',
      sorting: false,
      render: account => (
        <ConfirmActionButton
          label="Delete"
          ariaLabel={`Delete ${account.name}`}
          color="secondary"
          // Only an OWNER deletes an ADMIN service account (the service checks it too).
          disabled={needsAnOwner(callerRole, account.role)}
          disabledReason="Only an owner deletes an admin service account"
          title={`Delete ${account.name}?`}
          onConfirm={() =>
            client.call('deleteServiceAccount', {
              params: { id: account.id },
            })
          }
          onDone={() => {
            say({ text: `${account.name} is deleted.` });
            accounts.retry();
            onChanged();
          }}
        >
          <Typography>
            Its API keys are revoked; runners using them stop.
          </Typography>
          <OnlineRunnersWarning
            serviceAccountId={account.id}
            signsInWith="this account"
          />
        </ConfirmActionButton>
      ),
    });
  }

  return (
    <TableCard
      title="Service accounts"
      subheader="Identities for runners and automation, which sign in with their API keys."
      // Only admins create and delete them (the service checks it too).
      action={
        isAdmin && (
          <Button
            variant="contained"
            color="primary"
            size="small"
            onClick={() => setCreating(true)}
          >
            Create service account
          </Button>
        )
      }
      notes={
        <>
          {message}
          {isAdmin === false && (
            <Typography variant="body2" color="textSecondary" paragraph>
              An organization admin creates and deletes service accounts.
            </Typography>
          )}
          <LoadNotes state={accounts} />
        </>
      }
    >
      <LoadingTable
        options={CARD_TABLE_OPTIONS}
        loading={accounts.loading && !accounts.value}
        loadingLabel="Loading service accounts"
        columns={columns}
        data={accounts.items}
        emptyContent={
          <CardBody>
            <Typography>
              No service accounts yet: create one for a runner or for
              automation.
            </Typography>
          </CardBody>
        }
      />
      {creating && (
        <CreateServiceAccountDialog
          onClose={() => setCreating(false)}
          onCreated={account => {
            say({
              text: `${account.name} is created. Create an API key for it under API keys.`,
            });
            accounts.retry();
            onChanged();
          }}
        />
      )}
    </TableCard>
  );
};
