import { useApi } from '@backstage/frontend-plugin-api';
import { Role } from '@infra-delivery/plugin-infra-delivery-common';
import TextField from '@material-ui/core/TextField';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { useCallerRole } from '../common/useCallerRole';
import { CreateDialog } from './CreateDialog';
import { grantableRoles } from './ownersOnly';
import { ROLE_HELP } from './roleHelp';
import { RoleSelect } from './RoleSelect';

/** Invites a person by email with a role; `onInvited` takes the invitation token, shown once. */
export const InviteMemberDialog = ({
  onInvited,
  onClose,
}: {
  onInvited: (invitationToken?: string) => void;
  onClose: () => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const { role: callerRole } = useCallerRole();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('MEMBER');
  return (
    <CreateDialog
      title="Invite a member"
      submitLabel="Invite"
      canSubmit={Boolean(email.trim())}
      errorTitle="The invitation failed"
      onClose={onClose}
      onCreate={async () => {
        const invitation = await client.call('createMembership', {
          body: { data: { email: email.trim(), role } },
        });
        onInvited(invitation.data.invitationToken);
      }}
    >
      <TextField
        id="invite-email"
        name="email"
        label="Email"
        required
        value={email}
        helperText="They get an invitation token to sign up with: you copy it on the next step"
        onChange={event => setEmail(event.target.value)}
      />
      <RoleSelect
        id="invite-role"
        value={role}
        onChange={setRole}
        roles={grantableRoles(callerRole)}
        helperText={ROLE_HELP}
      />
    </CreateDialog>
  );
};
