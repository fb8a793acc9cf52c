import { useApi } from '@backstage/frontend-plugin-api';
import { CodeSource } from '@infra-delivery/plugin-infra-delivery-common';
import Button from '@material-ui/core/Button';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { useActionStarted } from '../common/ActionMessage';

/** What a verification of a code source came to: the code source as it is now, or an error. */
export type VerifyOutcome =
  | { source: CodeSource }
  | { repoName: string; error: Error };

/**
 * Asks the service to check again that the installation reaches the repository
 * (`POST /code-sources/{id}/verify`), and reports what it answered.
 */
export const VerifyCodeSourceButton = ({
  source,
  onOutcome,
}: {
  source: CodeSource;
  onOutcome: (outcome: VerifyOutcome) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const actionStarted = useActionStarted();
  const [busy, setBusy] = useState(false);
  const verify = async () => {
    actionStarted();
    setBusy(true);
    try {
      const { data } = await client.call('verifyCodeSource', {
        params: { id: source.id },
      });
      onOutcome({ source: data });
    } catch (error) {
      onOutcome({ repoName: source.repoName, error: error as Error });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      size="small"
      variant="outlined"
      color="primary"
      disabled={busy}
      aria-label={`Verify ${source.repoName}`}
      onClick={verify}
    >
      {busy ? 'Verifying…' : 'Verify'}
    </Button>
  );
};
