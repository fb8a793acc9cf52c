import { TableColumn } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import { Membership, Role } from '@infra-delivery/plugin-infra-delivery-common';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { useEffect, useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import {
  useActionMessage,
  useActionOutcome,
  useActionStarted,
} from '../common/ActionMessage';
import { PersonName, personText } from '../common/PersonName';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { CARD_TABLE_OPTIONS } from '../common/tableOptions';
import { ErrorPanel } from '../common/ErrorPanel';
import { LoadNotes } from '../common/LoadNotes';
import { ROLE_LABELS } from '../common/labels';
import { useCallerRole } from '../common/useCallerRole';
import { useIsOrganizationAdmin } from '../common/useIsOrganizationAdmin';
import { needsAnOwner, roleChoices } from './ownersOnly';
import { RoleSelect } from './RoleSelect';
import { SecretOnceDialog } from './SecretOnceDialog';
import { InviteMemberDialog } from './InviteMemberDialog';
import { ListState } from './useList';
import { LoadingTable } from '../common/LoadingTable';
import { TableCard } from '../common/TableCard';

/**
 * How many rows the card showed when it last loaded: its skeleton keeps their height when it
 * loads again. First, one: an organization has at least the member reading it, and most have
 * only them at first. Three skeleton rows shrank the card by 104 px to its one member once
 * read (session 43 saw it grow by 85 under a progress bar), and every card under it jumped.
 */
let lastMemberRows = 1;

/** Members and pending invitations; inviting shows the invitation token once. */
export const MembersCard = ({
  members,
}: {
  /** The organization's memberships, read once for the page (the API keys name their owners). */
  members: ListState<Membership>;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const [inviting, setInviting] = useState(false);
  const [token, setToken] = useState<string>();
  const [roleError, setRoleError] = useActionOutcome<Error>();
  const actionStarted = useActionStarted();
  const { message, say } = useActionMessage();
  const { role: callerRole, membershipId: ownId } = useCallerRole();
  const isAdmin = useIsOrganizationAdmin();
  useEffect(() => {
    if (members.value) lastMemberRows = Math.max(1, members.value.length);
  }, [members.value]);
  // The service refuses to remove or demote the last OWNER who signed up: not offered.
  const signedUpOwners = members.items.filter(
    m => m.role === 'OWNER' && m.userId,
  ).length;
  const isLastOwner = (m: Membership) =>
    m.role === 'OWNER' && !!m.userId && signedUpOwners <= 1;
  // Only an OWNER grants, takes away or removes ADMIN and OWNER (the service enforces it too).
  const ownersOnly = (m: Membership) =>
    needsAnOwner(callerRole, m.role, m.id === ownId);
  const choicesFor = (m: Membership) =>
    isLastOwner(m) ? [m.role] : roleChoices(callerRole, m.role, m.id === ownId);

  const changeRole = async (membership: Membership, newRole: Role) => {
    actionStarted();
    setRoleError(undefined);
    try {
      await client.call('updateMembership', {
        params: { id: membership.id },
        body: { data: { role: newRole } },
      });
      say({
        text: `${personText(membership.email)} is now ${ROLE_LABELS[newRole]}.`,
      });
      members.retry();
    } catch (e) {
      setRoleError(e as Error);
    }
  };

  const columns: TableColumn<Membership>[] = [
    {
      // A portal user is named by their catalog entity: their display name, linked.
      title: 'Member',
      field: 'email',
      render: m => <PersonName name={m.email} />,
    },
    {
      title: 'Role',
      render: m =>
        isAdmin ? (
          <RoleSelect
            id={`role-${m.id}`}
            label={`Role of ${personText(m.email)}`}
            hideLabel
            value={m.role}
            roles={choicesFor(m)}
            disabled={choicesFor(m).length < 2}
            onChange={newRole => changeRole(m, newRole)}
          />
        ) : (
          ROLE_LABELS[m.role]
        ),
    },
    {
      title: 'State',
      // Not "Member": a role has that name, and an Owner read "Member" here.
      render: m => (m.userId ? 'Joined' : 'Invited'),
    },
  ];
  if (isAdmin) {
    columns.push({
      title: 'Actions',
      sorting: false,
      render: m => {
        // First: the last owner's caption asks an ADMIN to make another member Owner.
        if (ownersOnly(m)) {
          const whom = `an ${ROLE_LABELS[m.role].toLowerCase()}`;
          return (
            <Typography variant="caption" color="textSecondary">
              {m.userId
                ? `Only an owner changes or removes ${whom}`
                : `Only an owner changes or withdraws the invitation of ${whom}`}
            </Typography>
          );
        }
        if (isLastOwner(m)) {
          return (
            <Typography variant="caption" color="textSecondary">
              The last owner: make another member Owner first
            </Typography>
          );
        }
        return (
          <ConfirmActionButton
            label={m.userId ? 'Remove' : 'Withdraw'}
            ariaLabel={
              m.userId
                ? `Remove ${personText(m.email)}`
                : `Withdraw the invitation of ${m.email}`
            }
            color="secondary"
            // An invitee has no tokens or keys yet: only their invitation stops working.
            title={
              m.userId
                ? `Remove ${personText(m.email)}?`
                : `Withdraw the invitation of ${m.email}?`
            }
            onConfirm={() =>
              client.call('deleteMembership', { params: { id: m.id } })
            }
            onDone={() => {
              say({
                text: m.userId
                  ? `${personText(m.email)} is no longer a member.`
                  : `The invitation of ${m.email} is withdrawn.`,
              });
              members.retry();
            }}
          >
            <Typography>
              {m.userId
                ? 'Their access tokens and API keys stop working at once.'
                : 'The invitation token stops working.'}
            </Typography>
          </ConfirmActionButton>
        );
      },
    });
  }

  return (
    <TableCard
      title="Members and invitations"
      subheader="People with a role in the organization, and those invited who have not signed up yet."
      // Only admins invite, change roles and remove (the service checks it too).
      action={
        isAdmin && (
          <Button
            variant="contained"
            color="primary"
            size="small"
            onClick={() => setInviting(true)}
          >
            Invite member
          </Button>
        )
      }
      notes={
        <>
          {message}
          {isAdmin === false && (
            <Typography variant="body2" color="textSecondary" paragraph>
              An organization admin invites members and changes their roles.
            </Typography>
          )}
          {roleError && (
            <ErrorPanel error={roleError} title="The role was not changed" />
          )}
          <LoadNotes state={members} />
        </>
      }
    >
      <LoadingTable
        options={CARD_TABLE_OPTIONS}
        loading={members.loading && !members.value}
        loadingLabel="Loading members"
        loadingRows={lastMemberRows}
        columns={columns}
        data={members.items}
      />
      {inviting && (
        <InviteMemberDialog
          onClose={() => setInviting(false)}
          onInvited={invitationToken => {
            setToken(invitationToken);
            members.retry();
          }}
        />
      )}
      {token && (
        <SecretOnceDialog
          title="Invitation token"
          secret={token}
          onClose={() => setToken(undefined)}
        >
          {/* It is not for the portal: a portal user's access comes from role mappings. */}
          The invitee signs up with it through the API:{' '}
          <code>POST /auth/signup</code> with their email, a password and this
          token as <code>invitationToken</code>. People who use the portal need
          no invitation: <code>infraDelivery.roleMappings</code> gives them
          their role.
        </SecretOnceDialog>
      )}
    </TableCard>
  );
};
