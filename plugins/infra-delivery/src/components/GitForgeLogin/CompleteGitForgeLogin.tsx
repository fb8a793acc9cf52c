import { Content, InfoCard, Link, Progress } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import Typography from '@material-ui/core/Typography';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { ErrorPanel } from '../common/ErrorPanel';
import { CARD_HEADING } from '../common/cardHeading';

/**
 * The self-hosted servers' OAuth callback page: completes the login with what the server sent
 * back and the signed-in member's own credential, so a login link someone else started is
 * refused instead of storing this member's forge account as theirs.
 */
export const CompleteGitForgeLogin = ({
  search,
  organizationPath,
}: {
  /** The query the server sent the browser back with. */
  search: string;
  /** Where the self-hosted servers are listed. */
  organizationPath: string;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const { value, loading, error } = useAsync(async () => {
    const query = new URLSearchParams(search);
    const result = await client.call('completeGitSelfHostedLogin', {
      query: {
        state: query.get('state') ?? '',
        code: query.get('code') ?? undefined,
        error: query.get('error') ?? undefined,
        error_description: query.get('error_description') ?? undefined,
      },
    });
    const server = await client.call('getGitSelfHostedServer', {
      params: { id: result.data.gitSelfHostedServerId },
    });
    return { login: result.data, server: server.data };
  }, [client, search]);

  if (loading) {
    return <Progress />;
  }
  return (
    <Content>
      {error ? (
        <ErrorPanel error={error} title="The login did not complete" />
      ) : (
        <InfoCard
          titleTypographyProps={CARD_HEADING}
          title={`Logged in to ${value!.server.name}`}
        >
          <Typography paragraph>
            The portal now reads repositories on {value!.server.baseUrl} with
            your own access ({value!.login.scopes.join(', ') || 'no scopes'}).
          </Typography>
          <Link to={organizationPath}>Back to the self-hosted servers</Link>
        </InfoCard>
      )}
      {error && (
        <Typography>
          <Link to={organizationPath}>
            Start the login again from the self-hosted servers
          </Link>
        </Typography>
      )}
    </Content>
  );
};
