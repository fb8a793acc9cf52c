import { useApi } from '@backstage/frontend-plugin-api';
import { ServiceAccount } from '@infra-delivery/plugin-infra-delivery-common';
import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';
import { useMemo, useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { useAttemptKey } from '../common/attemptKey';
import { CreateDialog } from './CreateDialog';

const MINE = 'mine';

const DAY_MS = 24 * 3600_000;

/** How long a new key lives; a key that never expires is a choice, not the default. */
const LIFETIMES = [
  { value: '30', label: '30 days', days: 30 },
  { value: '90', label: '90 days', days: 90 },
  { value: '365', label: '1 year', days: 365 },
  { value: 'never', label: 'Never', days: undefined },
] as const;
const DEFAULT_LIFETIME = '90';

/** When a key created now with `lifetime` expires; undefined: never. */
function expiryOf(lifetime: string, now = Date.now()) {
  const days = LIFETIMES.find(l => l.value === lifetime)?.days;
  return days === undefined
    ? undefined
    : new Date(now + days * DAY_MS).toISOString();
}

/**
 * Creates an API key for the person or for one of `keyOwners` (the service accounts whose keys
 * they may make), with a lifetime; `onCreated` takes the key, which is shown once.
 */
export const CreateApiKeyDialog = ({
  keyOwners,
  onCreated,
  onClose,
}: {
  keyOwners: ServiceAccount[];
  onCreated: (key: string) => void;
  onClose: () => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const [name, setName] = useState('');
  const [owner, setOwner] = useState(MINE);
  const [lifetime, setLifetime] = useState<string>(DEFAULT_LIFETIME);
  // Fixed while the choice stands, so that creating again after an error or a lost answer
  // sends the same request, and with its Idempotency-Key makes one key, not two.
  const expiresAt = useMemo(() => expiryOf(lifetime), [lifetime]);
  const { idempotencyKey } = useAttemptKey(
    JSON.stringify([name.trim(), owner, expiresAt]),
  );
  return (
    <CreateDialog
      title="Create an API key"
      submitLabel="Create key"
      canSubmit={Boolean(name.trim())}
      errorTitle="The key was not created"
      onClose={onClose}
      onCreate={async () => {
        const created = await client.call('createApiKey', {
          idempotencyKey,
          body: {
            data: {
              name: name.trim(),
              ...(expiresAt ? { expiresAt } : {}),
              ...(owner === MINE
                ? {}
                : { ownerType: 'SERVICE_ACCOUNT' as const, ownerId: owner }),
            },
          },
        });
        onCreated(created.data.key);
      }}
    >
      <TextField
        id="api-key-name"
        name="name"
        label="Name"
        required
        value={name}
        helperText="Where it is used, to recognize it later: laptop, CI"
        onChange={event => setName(event.target.value)}
      />
      <TextField
        id="api-key-owner"
        select
        label="For"
        value={owner}
        helperText="Requests with the key act as you, or as the service account"
        onChange={event => setOwner(event.target.value)}
      >
        <MenuItem value={MINE}>Me</MenuItem>
        {keyOwners.map(account => (
          <MenuItem key={account.id} value={account.id}>
            {account.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        id="api-key-lifetime"
        select
        label="Expires after"
        value={lifetime}
        helperText="Requests with the key fail once it expires"
        onChange={event => setLifetime(event.target.value)}
      >
        {LIFETIMES.map(l => (
          <MenuItem key={l.value} value={l.value}>
            {l.label}
          </MenuItem>
        ))}
      </TextField>
    </CreateDialog>
  );
};
