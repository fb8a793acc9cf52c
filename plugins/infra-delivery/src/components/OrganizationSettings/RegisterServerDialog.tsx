import { useApi } from '@backstage/frontend-plugin-api';
import { GitSelfHostedServer } from '@infra-delivery/plugin-infra-delivery-common';
import TextField from '@material-ui/core/TextField';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { CreateDialog } from './CreateDialog';
import { DialogText } from '../common/DialogText';

const EMPTY_FORM = { name: '', baseUrl: '', clientId: '', clientSecret: '' };

const FIELDS: [keyof typeof EMPTY_FORM, string, string][] = [
  ['name', 'Name', 'What members call it: GitHub at Acme'],
  ['baseUrl', 'Server address', 'https://github.acme.example'],
  [
    'clientId',
    'OAuth client id',
    "From the OAuth app's page on the server (Settings › Developer settings › OAuth Apps)",
  ],
  [
    'clientSecret',
    'OAuth client secret',
    'Generated on the same page; it is not shown again here',
  ],
];

/**
 * Registers a GitHub Enterprise Server with its OAuth app, whose callback URL (`callbackUrl`)
 * the person sets on the server first; `onRegistered` with the server.
 */
export const RegisterServerDialog = ({
  callbackUrl,
  onRegistered,
  onClose,
}: {
  callbackUrl: string;
  onRegistered: (server: GitSelfHostedServer) => void;
  onClose: () => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const [form, setForm] = useState(EMPTY_FORM);
  return (
    <CreateDialog
      title="Register a self-hosted git server"
      submitLabel="Register"
      canSubmit={Object.values(form).every(value => value.trim())}
      errorTitle="The server was not registered"
      onClose={onClose}
      onCreate={async () => {
        const created = await client.call('createGitSelfHostedServer', {
          body: { data: form },
        });
        onRegistered(created.data);
      }}
      intro={
        <DialogText paragraph>
          Create an OAuth app on the GitHub Enterprise Server whose callback URL
          is <code style={{ wordBreak: 'break-all' }}>{callbackUrl}</code>, then
          enter its client id and secret here. Each member then logs in to the
          server once.
        </DialogText>
      }
    >
      {FIELDS.map(([name, label, help]) => (
        <TextField
          key={name}
          id={`self-hosted-server-${name}`}
          name={name}
          label={label}
          required
          type={name === 'clientSecret' ? 'password' : 'text'}
          value={form[name]}
          helperText={help}
          onChange={event => setForm({ ...form, [name]: event.target.value })}
        />
      ))}
    </CreateDialog>
  );
};
