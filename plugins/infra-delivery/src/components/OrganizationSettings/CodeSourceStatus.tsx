import { CodeSource } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { StatusLabel } from '../common/StatusLabel';
import { Timestamp } from '../common/Timestamp';

/**
 * Whether the GitHub App installation reaches the repository, as its last check found: lost
 * (`accessLost`, set by a verification or by GitHub telling the service), or reached, with
 * when that was last proved.
 */
export const CodeSourceStatus = ({ source }: { source: CodeSource }) => {
  if (source.accessLost) {
    return (
      <Box>
        <StatusLabel kind="error" label="Access lost" />
        <Typography variant="caption" component="p" color="textSecondary">
          Installation {source.auth.forgeInstallationId} no longer reaches it
        </Typography>
      </Box>
    );
  }
  if (!source.accessCheckedAt) {
    return <StatusLabel kind="pending" label="Not verified yet" />;
  }
  return (
    <Box>
      <StatusLabel kind="ok" label="Reachable" />
      <Typography variant="caption" component="p" color="textSecondary">
        Verified <Timestamp value={source.accessCheckedAt} />
      </Typography>
    </Box>
  );
};
