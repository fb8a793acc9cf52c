import { Content, Progress } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { ErrorPanel } from '../common/ErrorPanel';

/**
 * Starts the signed-in member's login to a self-hosted server (#27) and sends the browser to
 * the server's authorization page. The link in a "Log in first" error leads here.
 */
export const StartGitForgeLogin = ({
  gitSelfHostedServerId,
  navigate = url => window.location.assign(url),
}: {
  gitSelfHostedServerId: string;
  /** Where the browser goes; replaced in tests. */
  navigate?: (url: string) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const { error } = useAsync(async () => {
    const { data } = await client.call('getGitSelfHostedLoginUrl', {
      params: { gitSelfHostedServerId },
    });
    navigate(data.authorizeUrl);
  }, [client, gitSelfHostedServerId]);
  return (
    <Content>
      {error ? (
        <ErrorPanel error={error} title="The login could not start" />
      ) : (
        <Progress />
      )}
    </Content>
  );
};
