import { LinkButton, Progress } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import { CloudAccount } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { useEffect, useId, useRef, useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { ErrorPanel } from '../common/ErrorPanel';
import { DialogText } from '../common/DialogText';
import { PluginDialog } from '../common/PluginDialog';
import { useCreateStackPath } from '../common/useCreateStackPath';

const POLL_MS = 3000;

/**
 * What comes after an account is connected: stacks that name it deploy into it. Where the app
 * has the stack template, a new one with the account chosen; else where a stack names it.
 */
const WhatComesNext = ({ account }: { account: CloudAccount }) => {
  const createStackPath = useCreateStackPath();
  return (
    <>
      <DialogText paragraph>
        Stacks deploy into it once they name it as their cloud account
        {createStackPath
          ? ': create one with it chosen, or choose it in an existing stack’s settings (its Stacks tab).'
          : ': choose it when you create a stack, or in an existing stack’s settings (its Stacks tab).'}
      </DialogText>
      {createStackPath && (
        <LinkButton
          variant="contained"
          color="primary"
          to={createStackPath({ cloudAccount: account })}
        >
          Create a stack in {account.name}
        </LinkButton>
      )}
    </>
  );
};

/**
 * Connects (or upgrades) an account: the signed template to launch in the AWS console, and
 * the account's status watched until the template's callback has connected it. Once it is,
 * the launch instructions go: the dialog says so, and for a new account what comes next.
 */
export const ConnectDialog = ({
  account,
  onClose,
  onConnected,
}: {
  account: CloudAccount;
  onClose: (changed: boolean) => void;
  /**
   * Called once the dialog learns the account is connected (or upgraded): the list behind it
   * still said CONNECT, under a dialog saying it was connected, until Done was pressed.
   */
  onConnected?: () => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const titleId = useId();
  const template = useAsync(
    () =>
      client.call('getCloudAccountTemplateUrl', { params: { id: account.id } }),
    [client, account.id],
  );
  const [current, setCurrent] = useState(account);
  /** Opened on a connected account: to upgrade its role, not to connect it. */
  const upgrading = account.status === 'CONNECTED';
  const [error, setError] = useState<Error>();
  const targetVersion = template.value?.data.version;
  const connected =
    current.status === 'CONNECTED' &&
    (!targetVersion || current.roleVersion === targetVersion);

  // Connected as the service now says, not as the dialog was opened on.
  const learnedConnected = connected && current !== account;
  const onConnectedRef = useRef(onConnected);
  onConnectedRef.current = onConnected;
  useEffect(() => {
    if (learnedConnected) onConnectedRef.current?.();
  }, [learnedConnected]);

  useEffect(() => {
    if (connected) return undefined;
    const timer = setInterval(async () => {
      try {
        const latest = await client.call('getCloudAccount', {
          params: { id: account.id },
        });
        setCurrent(latest.data);
      } catch (e) {
        setError(e as Error);
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [client, account.id, connected]);

  const connectLocally = async () => {
    setError(undefined);
    try {
      const result = await client.call('connectCloudAccountLocally', {
        params: { id: account.id },
      });
      setCurrent(result.data);
    } catch (e) {
      setError(e as Error);
    }
  };

  return (
    <PluginDialog
      open
      onClose={() => onClose(current !== account)}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
    >
      <DialogTitle id={titleId}>Connect {account.name}</DialogTitle>
      <DialogContent>
        {template.loading && <Progress />}
        {template.error && <ErrorPanel error={template.error} />}
        {template.value && !connected && (
          <>
            <Typography paragraph>
              Launch the CloudFormation stack in AWS account {account.cloudId}.
              It creates a role with the permissions the portal needs (policy
              version {template.value.data.version}) and reports back when it is
              done.
            </Typography>
            {!template.value.data.quickCreateUrl && (
              <DialogText paragraph>
                Download the template, then in the AWS console open
                CloudFormation, choose Create stack and upload it.
              </DialogText>
            )}
            <Box
              display="flex"
              flexWrap="wrap"
              alignItems="center"
              style={{ gap: 16 }}
              mb={2}
            >
              {template.value.data.quickCreateUrl && (
                <Button
                  variant="contained"
                  color="primary"
                  href={template.value.data.quickCreateUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  Launch in the AWS console
                </Button>
              )}
              <Link
                href={template.value.data.templateUrl}
                style={{ whiteSpace: 'nowrap' }}
              >
                Download the template
              </Link>
            </Box>
            <DialogText paragraph>
              Without AWS (local development), the local cloud driver can
              complete the onboarding itself:
            </DialogText>
            <Button variant="outlined" onClick={connectLocally}>
              Connect with the local driver
            </Button>
          </>
        )}
        {error && <ErrorPanel error={error} title="Connecting failed" />}
        {connected ? (
          <>
            <Alert severity="success" role="status">
              {upgrading
                ? `${account.name} runs policy version ${current.roleVersion} now, with role ${current.cloudRef}.`
                : `${account.name} is connected with role ${current.cloudRef} (policy version ${current.roleVersion}).`}
            </Alert>
            {!upgrading && (
              <Box mt={2}>
                <WhatComesNext account={current} />
              </Box>
            )}
          </>
        ) : (
          <Box mt={2}>
            <Typography role="status">
              Once the stack has created the role, it reports back and this says
              so.
            </Typography>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(current !== account)}>
          {connected ? 'Done' : 'Close'}
        </Button>
      </DialogActions>
    </PluginDialog>
  );
};
