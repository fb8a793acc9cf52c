import { useApi } from '@backstage/frontend-plugin-api';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import { useEffect, useId, useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { ButtonWithReason } from '../common/ButtonWithReason';
import { DialogForm } from '../common/DialogForm';
import { ErrorPanel } from '../common/ErrorPanel';
import { fieldErrorsOf } from '../OrganizationSettings/fieldErrors';
import { RunnerArrival } from './RunnerArrival';
import { RunnerStartCommand } from './RunnerStartCommand';
import { PluginDialog } from '../common/PluginDialog';
import { useAttemptKey } from '../common/attemptKey';

/** The command with the new key, shown once like any other secret, and whether it took. */
const StartCommand = ({
  token,
  serviceAccountId,
}: {
  token: string;
  serviceAccountId: string;
}) => {
  return (
    <>
      <Typography gutterBottom>
        Run this command where the runner should work: in the directory that
        holds your infrastructure code, on a machine with OpenTofu or Terraform.
        Copy it now: the key in it is shown only this once and cannot be read
        again.
      </Typography>
      <RunnerStartCommand token={token} />
      <Box marginTop={2}>
        <RunnerArrival serviceAccountId={serviceAccountId} />
      </Box>
    </>
  );
};

/** "Runner", or the first of "Runner 2", "Runner 3", … that no name in `taken` is. */
export function freeName(base: string, taken: string[]): string {
  const names = new Set(taken);
  let name = base;
  for (let n = 2; names.has(name); n++) {
    name = `${base} ${n}`;
  }
  return name;
}

/**
 * Connects a runner: creates a service account (role MEMBER) and an API key owned by it, then
 * shows once the command that starts a runner with that key, and waits for the runner to ask
 * for work.
 */
export const ConnectRunnerDialog = ({
  onClose,
}: {
  /** `connected` tells whether a key was created (then the runner list may change). */
  onClose: (connected: boolean) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const titleId = useId();
  const [name, setName] = useState('Runner');
  // The name offered is one no service account has (names are unique in the organization);
  // a name typed before the accounts are read is kept.
  useEffect(() => {
    client
      .call('listServiceAccounts', { query: { limit: 500 } })
      .then(page =>
        setName(current =>
          current === 'Runner'
            ? freeName(
                'Runner',
                page.data.map(account => account.name),
              )
            : current,
        ),
      )
      .catch(() => undefined);
  }, [client]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  // Kept when the key fails, so that trying again does not create a second account.
  const [serviceAccountId, setServiceAccountId] = useState<string>();
  const [token, setToken] = useState<string>();
  // Trying again after an error or a lost answer makes one key, not two (the account made
  // by the first try is kept above, so the request is the same).
  const { idempotencyKey } = useAttemptKey(name);

  const connect = async () => {
    setBusy(true);
    setError(undefined);
    try {
      let ownerId = serviceAccountId;
      if (!ownerId) {
        const account = await client.call('createServiceAccount', {
          body: { data: { name, role: 'MEMBER' } },
        });
        ownerId = account.data.id;
        setServiceAccountId(ownerId);
      }
      const key = await client.call('createApiKey', {
        idempotencyKey,
        body: { data: { name, ownerType: 'SERVICE_ACCOUNT', ownerId } },
      });
      setToken(key.data.key);
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };

  const nameError = fieldErrorsOf(error, ['name'])?.name;

  return (
    <PluginDialog
      open
      // Once the key shows, only Done closes: Escape or a click beside the dialog lost it.
      onClose={() => !busy && !token && onClose(false)}
      disableEscapeKeyDown={Boolean(token)}
      fullWidth
      maxWidth="md"
      aria-labelledby={titleId}
    >
      <DialogForm
        onSubmit={connect}
        canSubmit={!token && !busy && Boolean(name.trim())}
      >
        <DialogTitle id={titleId}>Connect a runner</DialogTitle>
        <DialogContent>
          {token && serviceAccountId ? (
            <StartCommand token={token} serviceAccountId={serviceAccountId} />
          ) : (
            <>
              <Typography gutterBottom>
                A runner executes the plan, apply and destroy steps of pipeline
                runs. It signs in with the API key of a service account of its
                own, created now with the Member role.
              </Typography>
              <TextField
                id="runner-name"
                name="name"
                label="Name"
                value={name}
                disabled={busy || Boolean(serviceAccountId)}
                fullWidth
                error={Boolean(nameError)}
                helperText={
                  nameError ?? 'What the Runners card calls it: build-hosts'
                }
                onChange={event => setName(event.target.value)}
              />
              {error && !nameError && (
                <ErrorPanel error={error} title="Could not connect a runner" />
              )}
            </>
          )}
        </DialogContent>
        <DialogActions>
          {token ? (
            <Button
              color="primary"
              variant="contained"
              onClick={() => onClose(true)}
            >
              Done
            </Button>
          ) : (
            <>
              <Button onClick={() => onClose(false)} disabled={busy}>
                Cancel
              </Button>
              {/* Greyed with the reason, as the plugin's other dialogs' buttons. */}
              <ButtonWithReason
                type="submit"
                color="primary"
                variant="contained"
                disabled={busy || !name.trim()}
                disabledReason={
                  name.trim() ? undefined : 'Fill in first: Name.'
                }
              >
                Create the key
              </ButtonWithReason>
            </>
          )}
        </DialogActions>
      </DialogForm>
    </PluginDialog>
  );
};
