import Box from '@material-ui/core/Box';
import Alert from '@material-ui/lab/Alert';
import { ErrorPanel } from '../common/ErrorPanel';
import { VerifyOutcome } from './VerifyCodeSourceButton';

/**
 * What a verification found when it is not good news: the installation no longer reaches the
 * repository, or the check could not be made (the forge did not answer, say). A repository
 * still reached is said as any other outcome, by the card's action message.
 */
export const VerifyOutcomeMessage = ({
  outcome,
  onClose,
}: {
  outcome: VerifyOutcome;
  onClose: () => void;
}) => {
  if ('error' in outcome) {
    return (
      <Box marginBottom={2}>
        <ErrorPanel
          error={outcome.error}
          title={`${outcome.repoName} could not be verified`}
        />
      </Box>
    );
  }
  const { source } = outcome;
  return (
    <Box marginBottom={2}>
      <Alert severity="warning" role="status" onClose={onClose}>
        GitHub App installation {source.auth.forgeInstallationId} no longer
        reaches {source.repoName}: stacks and modules cannot read it. Give the
        installation access to the repository on GitHub and verify again, or
        connect it through another installation.
      </Alert>
    </Box>
  );
};
