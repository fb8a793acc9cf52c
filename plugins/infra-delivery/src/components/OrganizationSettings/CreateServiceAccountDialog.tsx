import { useApi } from '@backstage/frontend-plugin-api';
import {
  Role,
  ServiceAccount,
} from '@infra-delivery/plugin-infra-delivery-common';
import TextField from '@material-ui/core/TextField';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { useCallerRole } from '../common/useCallerRole';
import { CreateDialog } from './CreateDialog';
import { grantableRoles } from './ownersOnly';
import { ROLE_HELP } from './roleHelp';
import { RoleSelect } from './RoleSelect';

/** Creates a service account with a name and a role; `onCreated` with the account. */
export const CreateServiceAccountDialog = ({
  onCreated,
  onClose,
}: {
  onCreated: (account: ServiceAccount) => void;
  onClose: () => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const { role: callerRole } = useCallerRole();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('MEMBER');
  return (
    <CreateDialog
      title="Create a service account"
      submitLabel="Create"
      canSubmit={Boolean(name.trim())}
      errorTitle="The service account was not created"
      onClose={onClose}
      onCreate={async () => {
        const created = await client.call('createServiceAccount', {
          body: {
            data: { name: name.trim(), role: role as Exclude<Role, 'OWNER'> },
          },
        });
        onCreated(created.data);
      }}
    >
      <TextField
        id="service-account-name"
        name="name"
        label="Name"
        required
        value={name}
        helperText="What it is for, unique in the organization: Build hosts, Release automation"
        onChange={event => setName(event.target.value)}
      />
      <RoleSelect
        id="service-account-role"
        value={role}
        onChange={setRole}
        // A service account is never an OWNER; only an OWNER creates an ADMIN one.
        roles={grantableRoles(callerRole).filter(r => r !== 'OWNER')}
        helperText={ROLE_HELP}
      />
    </CreateDialog>
  );
};
