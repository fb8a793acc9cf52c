import { Content } from '@backstage/core-components';
import { portalPages } from '@infra-delivery/plugin-infra-delivery-common';
import { Route, Routes, useLocation, useParams } from 'react-router-dom';
import { ErrorPanel } from '../common/ErrorPanel';
import { useInfrastructurePath } from '../common/useInfrastructurePath';
import { CompleteGitForgeLogin } from './CompleteGitForgeLogin';
import { StartGitForgeLogin } from './StartGitForgeLogin';

const StartFromPath = () => {
  const { serverId } = useParams();
  return <StartGitForgeLogin gitSelfHostedServerId={serverId!} />;
};

/** `/gitforge/callback` without the leading `/gitforge/` this page is mounted at. */
const CALLBACK_PATH = portalPages.gitForgeLoginCallback.replace(
  /^\/gitforge\//,
  '',
);

/**
 * The self-hosted forge login pages, mounted at `{Infrastructure page}/gitforge`: the start
 * (`:serverId/login`) and the OAuth callback (`callback`) that the backend's
 * `infraDelivery.portalUrl` points the servers at.
 */
export const GitForgeLoginPage = () => {
  const { search } = useLocation();
  const organizationPath = `${useInfrastructurePath()}/organization#self-hosted-servers`;
  return (
    <Routes>
      <Route
        path={CALLBACK_PATH}
        element={
          <CompleteGitForgeLogin
            search={search}
            organizationPath={organizationPath}
          />
        }
      />
      <Route path=":serverId/login" element={<StartFromPath />} />
      <Route
        path="*"
        element={
          <Content>
            <ErrorPanel
              title="No such page"
              error={new Error('This address is not a login page')}
            />
          </Content>
        }
      />
    </Routes>
  );
};
