import { useApi } from '@backstage/frontend-plugin-api';
import {
  CodeSource,
  createCodeSourceRequestSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import TextField from '@material-ui/core/TextField';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { useActionStarted } from '../common/ActionMessage';
import { ErrorPanel } from '../common/ErrorPanel';
import { FormDialog } from '../common/FormDialog';
import { useSubmission } from '../common/useSubmission';
import { refusedFieldsOf } from '../Modules/refusedFields';
import { installationIdFrom } from './installationId';
import { DialogText } from '../common/DialogText';

const FIELDS = ['forgeInstallationId', 'repoUrl'];

/** The service's reasons to refuse a repository or an installation, by the field they are about. */
const REFUSALS_BY_FIELD = {
  ALREADY_CONNECTED: 'repoUrl',
  INVALID_REPO_URL: 'repoUrl',
  // No App for the repository's host (or its owner) in `integrations.github`.
  NOT_CONFIGURED: 'repoUrl',
  REPOSITORY_NOT_FOUND: 'repoUrl',
  REPOSITORY_MOVED: 'repoUrl',
  // The installation is gone, suspended, or its App's credentials are refused.
  NOT_FOUND: 'forgeInstallationId',
  SUSPENDED: 'forgeInstallationId',
  UNAUTHORIZED: 'forgeInstallationId',
};

const fields = createCodeSourceRequestSchema.shape.data.shape;

/** The schema's first complaint about a value, or nothing for a value still empty. */
function problemOf(
  schema: (typeof fields)[keyof typeof fields],
  value: string,
): string | undefined {
  if (!value) return undefined;
  return schema.safeParse(value).error?.issues[0]?.message;
}

/**
 * Connects a GitHub repository to the organization (`POST /code-sources`) through the GitHub
 * App installation that reaches it: the service reads its id, default branch and visibility
 * from GitHub. What the service refuses (an installation it cannot use, a host without an App
 * in `integrations.github`, a repository connected already) is said beside the field.
 */
export const ConnectCodeSourceDialog = ({
  onClose,
}: {
  /** With the code source connected, or nothing when the person cancelled. */
  onClose: (connected?: CodeSource) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const actionStarted = useActionStarted();
  const [installation, setInstallation] = useState('');
  const [repoUrl, setRepoUrl] = useState('');

  const forgeInstallationId = installationIdFrom(installation);
  const problems: Record<string, string | undefined> = {
    forgeInstallationId: problemOf(
      fields.forgeInstallationId,
      forgeInstallationId,
    ),
    repoUrl: problemOf(fields.repoUrl, repoUrl.trim()),
  };
  const {
    busy,
    silentFor,
    error,
    submit: connect,
  } = useSubmission(async () => {
    actionStarted();
    const connected = await client.call('createCodeSource', {
      body: {
        data: {
          forgeInstallationId,
          repoUrl: repoUrl.trim(),
          type: 'HOSTED_FORGE',
        },
      },
    });
    onClose(connected.data);
  });
  const refused = refusedFieldsOf(error, FIELDS, REFUSALS_BY_FIELD);
  const problem = (field: string) => problems[field] ?? refused?.[field];
  const complete =
    Boolean(forgeInstallationId && repoUrl.trim()) &&
    !problems.forgeInstallationId &&
    !problems.repoUrl;

  return (
    <FormDialog
      title="Connect a repository"
      submitLabel="Connect"
      canSubmit={complete}
      busy={busy}
      silentFor={silentFor}
      onSubmit={connect}
      onClose={onClose}
    >
      <DialogText paragraph>
        The repository is read through a GitHub App installed on its owner (the
        App of its host under integrations.github in the app configuration):
        install the App on the account or organization, with access to the
        repository, then connect it here.
      </DialogText>
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        <TextField
          id="connect-code-source-repository"
          label="Repository address"
          required
          value={repoUrl}
          error={Boolean(problem('repoUrl'))}
          helperText={
            problem('repoUrl') ?? 'https://github.com/acme/infrastructure'
          }
          onChange={event => setRepoUrl(event.target.value)}
        />
        <TextField
          id="connect-code-source-installation"
          label="GitHub App installation"
          required
          value={installation}
          error={Boolean(problem('forgeInstallationId'))}
          helperText={
            problem('forgeInstallationId') ??
            'Its id, or the address of its settings page on GitHub (Settings › GitHub Apps › Configure), which ends with it: …/settings/installations/12345678'
          }
          onChange={event => setInstallation(event.target.value)}
        />
      </Box>
      {error && !refused && (
        <ErrorPanel
          error={error}
          title="The repository could not be connected"
        />
      )}
    </FormDialog>
  );
};
