import { discoveryApiRef, useApi } from '@backstage/frontend-plugin-api';
import {
  ApiKey,
  Membership,
} from '@infra-delivery/plugin-infra-delivery-common';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { useActionMessage } from '../common/ActionMessage';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { CARD_TABLE_OPTIONS, NO_WRAP } from '../common/tableOptions';
import { LoadNotes } from '../common/LoadNotes';
import { PersonName, PrincipalName } from '../common/PersonName';
import { Timestamp } from '../common/Timestamp';
import { useCallerRole } from '../common/useCallerRole';
import { useIsOrganizationAdmin } from '../common/useIsOrganizationAdmin';
import { needsAnOwner } from './ownersOnly';
import { SecretOnceDialog } from './SecretOnceDialog';
import { CreateApiKeyDialog } from './CreateApiKeyDialog';
import { useList } from './useList';
import { LoadingTable } from '../common/LoadingTable';
import { OnlineRunnersWarning } from '../Runners/OnlineRunnersWarning';
import { TableCard } from '../common/TableCard';
import { CardBody } from '../common/CardBody';
import { narrowerThan, useContainerWidth } from '../common/useContainerWidth';

/**
 * How a new key is used: a key shown with nothing after it left people asking where it goes.
 * The service's URL is the one the portal calls, as the runner command gives it.
 */
const KeyUse = () => {
  const discoveryApi = useApi(discoveryApiRef);
  const { value: serviceUrl } = useAsync(
    () => discoveryApi.getBaseUrl('infra-delivery'),
    [discoveryApi],
  );
  return (
    <>
      Requests to the API send it as a bearer token, e.g.{' '}
      <code>
        curl -H &quot;Authorization: Bearer $KEY&quot;{' '}
        {serviceUrl ?? '<service URL>'}/stacks
      </code>
      ; a runner takes a service account’s key as{' '}
      <code>INFRA_DELIVERY_RUNNER_TOKEN</code> (Connect a runner, below). The
      Status tab links the API’s OpenAPI document.
    </>
  );
};

/** When a key expires: "never", a date to come, or that it has expired. */
const KeyExpiry = ({ expiresAt }: { expiresAt?: string }) => {
  if (!expiresAt) return <>never</>;
  if (Date.parse(expiresAt) <= Date.now()) {
    return (
      <Typography variant="inherit" color="error">
        expired <Timestamp value={expiresAt} />
      </Typography>
    );
  }
  return <Timestamp value={expiresAt} />;
};

/** How a key ends: what tells it apart from the owner's other keys. */
const endsWith = (k: ApiKey) => `…${k.keySuffix}`;

/** The room under which the table folds into four columns (see its columns). */
const COMPACT_BELOW = 700;

/** Whether a key still opens the API: one that expired signs nobody in. */
const isUsable = (k: ApiKey) =>
  !k.expiresAt || Date.parse(k.expiresAt) > Date.now();

/** API keys: created for oneself or a service account, shown once, revocable. */
export const ApiKeysCard = ({
  version,
  members,
}: {
  version: number;
  /** The organization's members: a member's key is named after its member. */
  members: Membership[];
}) => {
  const client = useApi(infraDeliveryApiRef);
  const [measured, width] = useContainerWidth<HTMLDivElement>();
  const keys = useList(
    async () =>
      (await client.call('listApiKeys', { query: { limit: 500 } })).data,
    [client, version],
  );
  const accounts = useList(
    async () =>
      (await client.call('listServiceAccounts', { query: { limit: 500 } }))
        .data,
    [client, version],
  );
  const isAdmin = useIsOrganizationAdmin();
  const { role: callerRole, membershipId: ownId } = useCallerRole();
  // A service account's keys are an admin's to create; an ADMIN one's an owner's (the service
  // checks it too).
  const keyOwners = isAdmin
    ? accounts.items.filter(account => !needsAnOwner(callerRole, account.role))
    : [];
  const [creating, setCreating] = useState(false);
  const [key, setKey] = useState<string>();
  const { message, say } = useActionMessage();

  const ownerName = (ownerId: string) =>
    accounts.items.find(a => a.id === ownerId)?.name;
  // Read (or failed): a service account unnamed then is deleted or not the caller's to see.
  const accountsLoaded = !!accounts.value || !accounts.loading;

  /** Why the caller may not revoke a key: the keys of an ADMIN or OWNER are an owner's. */
  const revokeRefusal = (apiKey: ApiKey) => {
    if (apiKey.ownerType === 'SERVICE_ACCOUNT') {
      const account = accounts.items.find(a => a.id === apiKey.ownerId);
      return account && needsAnOwner(callerRole, account.role)
        ? 'Only an owner revokes the keys of an admin service account'
        : undefined;
    }
    const member = members.find(m => m.id === apiKey.ownerId);
    return member && needsAnOwner(callerRole, member.role, member.id === ownId)
      ? `Only an owner revokes the keys of an ${member.role.toLowerCase()}`
      : undefined;
  };

  /**
   * The online runners a key's revocation stops: its service account's, which sign in with one
   * of the account's keys (this one, when it is the only one that still works).
   */
  const runnersWarning = (apiKey: ApiKey) => {
    const onlyKey = !keys.items.some(
      other =>
        other.id !== apiKey.id &&
        other.ownerType === 'SERVICE_ACCOUNT' &&
        other.ownerId === apiKey.ownerId &&
        isUsable(other),
    );
    return (
      <OnlineRunnersWarning
        serviceAccountId={apiKey.ownerId}
        signsInWith={
          onlyKey
            ? 'this key'
            : `a key of ${ownerName(apiKey.ownerId) ?? 'its service account'}`
        }
        ifThisKey={!onlyKey}
      />
    );
  };

  // Under 700 px of room (a 900 px window beside the sidebar), as the code sources' table:
  // the key's ending goes under its name and when it was last used under when it expires. Six
  // columns wrapped every cell there, a key's name over three lines.
  const compact = narrowerThan(width, COMPACT_BELOW);

  return (
    <div ref={measured}>
      <TableCard
        title="API keys"
        subheader="Keys for the API: your own, or a service account's for a runner or automation. A key is shown once, when it is created."
        action={
          <Button
            variant="contained"
            color="primary"
            size="small"
            onClick={() => setCreating(true)}
          >
            Create API key
          </Button>
        }
        notes={
          <>
            {message}
            <LoadNotes state={keys} />
          </>
        }
      >
        <LoadingTable
          options={CARD_TABLE_OPTIONS}
          loading={keys.loading && !keys.value}
          loadingLabel="Loading API keys"
          columns={[
            {
              title: 'Name',
              render: k => (
                <>
                  {k.name}
                  {compact && (
                    <Typography
                      variant="caption"
                      component="p"
                      color="textSecondary"
                      // One phrase: under a long key name at 800 px it broke after "with".
                      style={NO_WRAP}
                    >
                      Ends with {endsWith(k)}
                    </Typography>
                  )}
                </>
              ),
            },
            {
              title: 'Owner',
              render: k => {
                if (k.ownerType === 'SERVICE_ACCOUNT') {
                  return (
                    <PrincipalName
                      id={k.ownerId}
                      name={ownerName(k.ownerId)}
                      loaded={accountsLoaded}
                    />
                  );
                }
                const member = members.find(m => m.id === k.ownerId);
                return member ? <PersonName name={member.email} /> : 'Member';
              },
            },
            ...(compact
              ? []
              : [
                  {
                    title: 'Ends with',
                    // "…wUCZ" and its header each on one line.
                    headerStyle: NO_WRAP,
                    cellStyle: NO_WRAP,
                    render: endsWith,
                  } as const,
                ]),
            {
              title: 'Expires',
              render: k => (
                <>
                  <KeyExpiry expiresAt={k.expiresAt} />
                  {compact && (
                    <Typography
                      variant="caption"
                      component="p"
                      color="textSecondary"
                    >
                      {k.lastUsedAt ? (
                        <>
                          Used <Timestamp value={k.lastUsedAt} />
                        </>
                      ) : (
                        'Never used'
                      )}
                    </Typography>
                  )}
                </>
              ),
            },
            ...(compact
              ? []
              : [
                  {
                    title: 'Last used',
                    render: (k: ApiKey) =>
                      k.lastUsedAt ? (
                        <Timestamp value={k.lastUsedAt} />
                      ) : (
                        'never'
                      ),
                  },
                ]),
            {
              title: 'Actions',
              sorting: false,
              render: k => (
                <ConfirmActionButton
                  label="Revoke"
                  ariaLabel={`Revoke ${k.name}`}
                  color="secondary"
                  disabled={revokeRefusal(k) !== undefined}
                  disabledReason={revokeRefusal(k)}
                  title={`Revoke ${k.name}?`}
                  onConfirm={() =>
                    client.call('revokeApiKey', { params: { id: k.id } })
                  }
                  onDone={() => {
                    say({ text: `${k.name} is revoked.` });
                    keys.retry();
                  }}
                >
                  <Typography paragraph>
                    Requests with this key fail from now on.
                  </Typography>
                  {k.ownerType === 'SERVICE_ACCOUNT' && runnersWarning(k)}
                </ConfirmActionButton>
              ),
            },
          ]}
          data={keys.items}
          emptyContent={
            <CardBody>
              <Typography>No API keys yet.</Typography>
            </CardBody>
          }
        />
        {creating && (
          <CreateApiKeyDialog
            keyOwners={keyOwners}
            onClose={() => setCreating(false)}
            onCreated={created => {
              setKey(created);
              keys.retry();
            }}
          />
        )}
        {key && (
          <SecretOnceDialog
            title="New API key"
            secret={key}
            onClose={() => setKey(undefined)}
          >
            <KeyUse />
          </SecretOnceDialog>
        )}
      </TableCard>
    </div>
  );
};
