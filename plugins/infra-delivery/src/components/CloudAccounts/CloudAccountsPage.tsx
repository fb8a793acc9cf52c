import { Content, TableColumn } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  contentWidths,
  NO_WRAP,
  CARD_TABLE_OPTIONS,
  ROW_ACTIONS_STYLE,
  WRAP_BETWEEN_WORDS,
} from '../common/tableOptions';
import {
  ANNOTATION_CLOUD_ACCOUNT,
  CloudAccount,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { useState } from 'react';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { infraDeliveryApiRef } from '../../api';
import { LoadNotes } from '../common/LoadNotes';
import { StatusLabel } from '../common/StatusLabel';
import { AddCloudAccountDialog } from './AddCloudAccountDialog';
import { TableCard } from '../common/TableCard';
import { ConnectDialog } from './ConnectDialog';
import { LoadingTable } from '../common/LoadingTable';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { ButtonWithReason } from '../common/ButtonWithReason';
import { useIsOrganizationAdmin } from '../common/useIsOrganizationAdmin';
import { narrowerThan, useContainerWidth } from '../common/useContainerWidth';
import { CardBody } from '../common/CardBody';
import { MaybeLink } from '../common/MaybeLink';
import { useAnnotatedEntities } from '../common/useAnnotatedEntities';
import { useEntityPageLink } from '../common/useEntityTabLink';

const AccountStatus = ({ account }: { account: CloudAccount }) => {
  if (account.status !== 'CONNECTED') {
    return <StatusLabel kind="pending" label="Awaiting connection" wrap />;
  }
  if (account.roleVersion !== account.latestRoleVersion) {
    return (
      // Which versions: the Role column says ("policy version 1 of 2").
      <StatusLabel kind="warning" label="Upgrade available" wrap />
    );
  }
  return <StatusLabel kind="ok" label="Connected" />;
};

/** `deployer` of `arn:aws:iam::111111111111:role/infra-delivery/deployer`: the name, not the path. */
export function roleNameOf(arn: string): string {
  // A role's name is unique in its account whatever its path (`infra-delivery/`).
  const role = /^arn:[^:]+:iam::\d+:role\/(?:.*\/)?([^/]+)$/.exec(arn);
  return role ? role[1] : arn;
}

/** "policy version 2", or "policy version 1 of 2" while an upgrade waits. */
export function roleVersionText(
  account: Pick<CloudAccount, 'roleVersion' | 'latestRoleVersion'>,
): string {
  return account.roleVersion === account.latestRoleVersion
    ? `policy version ${account.roleVersion}`
    : `policy version ${account.roleVersion} of ${account.latestRoleVersion}`;
}

/** An account's role: its name, its whole ARN on hover, and the version of its policy. */
const AccountRole = ({ account }: { account: CloudAccount }) => (
  <Box title={account.cloudRef} style={WRAP_BETWEEN_WORDS}>
    <Typography variant="body2">
      {roleNameOf(account.cloudRef ?? '')}
    </Typography>
    {account.roleVersion && (
      <Typography variant="caption" color="textSecondary" component="div">
        {roleVersionText(account)}
      </Typography>
    )}
  </Box>
);

/**
 * Why a greyed Add, Connect or Upgrade is greyed: the service lets only an ADMIN or OWNER
 * create an account or hand out its onboarding template (ADMINISTER), and refused anyone else
 * with a 403 after they had filled in the form.
 */
export const ADMIN_ONLY_REASON =
  'An organization admin adds, connects and upgrades AWS accounts; your role only reads them';

/** The room under which the table folds into three columns (see `columns`). */
const COMPACT_BELOW = 700;

/** The organization's AWS accounts: create, connect through CloudFormation, upgrade. */
export const CloudAccountsPage = () => {
  const client = useApi(infraDeliveryApiRef);
  const accounts = useReloadableAsync(
    async () =>
      (await client.call('listCloudAccounts', { query: { limit: 500 } })).data,
    [client],
  );
  // Each account's Resource in the catalog (the catalog module's, by its annotation), where
  // its stacks show as its dependents: an account's name leads there, as stack names do.
  const entities = useAnnotatedEntities(
    ANNOTATION_CLOUD_ACCOUNT,
    (accounts.value ?? []).map(account => account.id),
  );
  const entityPageLink = useEntityPageLink();
  const accountName = (account: CloudAccount) => {
    const entity = entities.value?.get(account.id);
    return (
      <MaybeLink to={entity && entityPageLink(entity)}>
        {account.name}
      </MaybeLink>
    );
  };
  const [connecting, setConnecting] = useState<CloudAccount>();
  const [adding, setAdding] = useState(false);
  const isAdmin = useIsOrganizationAdmin();
  // Greyed while the role is asked, but not said to be read-only before it is known.
  const adminOnlyReason = isAdmin === false ? ADMIN_ONLY_REASON : undefined;

  const actionsColumn: TableColumn<CloudAccount> = {
    title: 'Actions',
    sorting: false,
    render: a => (
      <Box style={ROW_ACTIONS_STYLE}>
        {(a.status !== 'CONNECTED' ||
          a.roleVersion !== a.latestRoleVersion) && (
          <ButtonWithReason
            size="small"
            variant="outlined"
            aria-label={`${a.status === 'CONNECTED' ? 'Upgrade' : 'Connect'} ${
              a.name
            }`}
            disabled={!isAdmin}
            disabledReason={adminOnlyReason}
            onClick={() => setConnecting(a)}
          >
            {a.status === 'CONNECTED' ? 'Upgrade' : 'Connect'}
          </ButtonWithReason>
        )}
        {/* An account added by mistake stayed "Awaiting connection" for good. A
          refusal (one with deployments) shows in the dialog, which stays open. */}
        {isAdmin && (
          <ConfirmActionButton
            label="Remove"
            color="secondary"
            ariaLabel={`Remove ${a.name}`}
            title={`Remove ${a.name}?`}
            onConfirm={() =>
              client.call('deleteCloudAccount', {
                params: { id: a.id },
              })
            }
            onDone={() => accounts.retry()}
          >
            <Typography paragraph>
              The portal forgets AWS account {a.cloudId}. Stacks that deploy
              into it are detached from it and keep their resources.
            </Typography>
            {/* The service refuses it (409 IN_USE): say so before, not only after. */}
            <Typography paragraph>
              An account that deployments were made with is kept: their history
              and rollbacks need it.
            </Typography>
            <Typography>
              The role in AWS stays until you delete its CloudFormation stack
              there.
            </Typography>
          </ConfirmActionButton>
        )}
      </Box>
    ),
  };

  // Under 700 px of room (a 900 px window beside the sidebar) the table has three columns: the
  // account id goes under the name and the role under the status. Five columns made a 700 px
  // window's table scroll sideways, Actions out of sight.
  const [measured, width] = useContainerWidth<HTMLDivElement>();
  const compact = narrowerThan(width, COMPACT_BELOW);
  const columns = contentWidths<CloudAccount>(
    compact
      ? [
          {
            title: 'Name',
            field: 'name',
            cellStyle: WRAP_BETWEEN_WORDS,
            render: a => (
              <>
                {accountName(a)}
                <Typography
                  variant="caption"
                  color="textSecondary"
                  component="div"
                >
                  AWS account <span style={NO_WRAP}>{a.cloudId}</span>
                </Typography>
              </>
            ),
          },
          {
            title: 'Status',
            render: a => (
              <>
                <AccountStatus account={a} />
                {/* One line under the status, named: "local-driver" alone said nothing. */}
                {a.cloudRef && (
                  <Typography
                    variant="caption"
                    color="textSecondary"
                    component="div"
                    title={a.cloudRef}
                    style={{ ...WRAP_BETWEEN_WORDS, marginTop: 4 }}
                  >
                    Role {roleNameOf(a.cloudRef)}
                    {a.roleVersion && `, ${roleVersionText(a)}`}
                  </Typography>
                )}
              </>
            ),
          },
          actionsColumn,
        ]
      : [
          {
            title: 'Name',
            field: 'name',
            cellStyle: WRAP_BETWEEN_WORDS,
            render: a => accountName(a),
          },
          {
            title: 'AWS account',
            field: 'cloudId',
            cellStyle: { whiteSpace: 'nowrap' },
            headerStyle: WRAP_BETWEEN_WORDS,
          },
          {
            title: 'Status',
            render: a => <AccountStatus account={a} />,
          },
          {
            // The role's name, its whole ARN on hover (the ARN ran over five lines at 1,024
            // px and repeated the account id beside it), and the version of its policy,
            // which the Overview and Upgrade speak of.
            title: 'Role',
            render: a => (a.cloudRef ? <AccountRole account={a} /> : '—'),
          },
          actionsColumn,
        ],
  );

  return (
    <Content>
      <LoadNotes state={accounts} />
      <div ref={measured}>
        <TableCard
          title="Cloud accounts"
          subheader="The AWS accounts stacks deploy into. Each is connected through a CloudFormation stack that creates the role the portal deploys with."
          action={
            <ButtonWithReason
              color="primary"
              variant="contained"
              size="small"
              disabled={!isAdmin}
              disabledReason={adminOnlyReason}
              onClick={() => setAdding(true)}
            >
              Add AWS account
            </ButtonWithReason>
          }
        >
          <LoadingTable
            loading={accounts.loading && !accounts.value}
            loadingLabel="Loading cloud accounts"
            options={CARD_TABLE_OPTIONS}
            // Names, statuses and roles wrap between words, and the actions stack: kept on one
            // line each, the table was 1,092 px wide and cut off a row's Remove at 1,024 px.
            columns={columns}
            data={accounts.value ?? []}
            emptyContent={
              <CardBody>
                <Typography>
                  No cloud account yet: add the first one with Add AWS account.
                </Typography>
              </CardBody>
            }
          />
        </TableCard>
      </div>
      {adding && (
        <AddCloudAccountDialog
          onAdded={account => {
            accounts.retry();
            setConnecting(account);
          }}
          onClose={() => setAdding(false)}
        />
      )}
      {connecting && (
        <ConnectDialog
          account={connecting}
          onClose={changed => {
            setConnecting(undefined);
            if (changed) accounts.retry();
          }}
          onConnected={() => accounts.retry()}
        />
      )}
    </Content>
  );
};
