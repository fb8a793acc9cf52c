import { Header, HeaderTabs, Link, Page } from '@backstage/core-components';
import { ReactElement } from 'react';
import {
  matchPath,
  Navigate,
  Route,
  Routes,
  useLocation,
  useResolvedPath,
} from 'react-router-dom';
import { CloudAccountsPage } from '../CloudAccounts';
import { GitForgeLoginPage } from '../GitForgeLogin';
import { InfrastructureHomePage } from '../InfrastructureHome';
import { ModulesPage } from '../Modules';
import { ProjectsPage } from '../Projects';
import { OrganizationSettingsPage } from '../OrganizationSettings';
import { OrganizationRunsPage } from '../PipelineRunsContent';
import { ServiceStatusPage } from '../ServiceStatusPage';
import { RUNS_TAB_PATH } from '../common/useInfrastructurePath';
import { UnknownTab } from '../UnknownTab';

interface Tab {
  path: string;
  title: string;
  element: ReactElement;
}

/**
 * The tabs of the new frontend system's Infrastructure page (its sub-pages in plugin.tsx),
 * with the same paths, so the views' links (`runs/<runId>`, `cloud-accounts`,
 * `organization#…`) lead to the same places in both systems. A path under none of them
 * shows {@link UnknownTab}.
 */
const TABS: Tab[] = [
  { path: 'overview', title: 'Overview', element: <InfrastructureHomePage /> },
  { path: RUNS_TAB_PATH, title: 'Runs', element: <OrganizationRunsPage /> },
  { path: 'projects', title: 'Projects', element: <ProjectsPage /> },
  { path: 'modules', title: 'Modules', element: <ModulesPage /> },
  {
    path: 'cloud-accounts',
    // As the new frontend system's tab (plugin.tsx says why).
    title: 'Accounts',
    element: <CloudAccountsPage />,
  },
  {
    path: 'organization',
    title: 'Organization',
    element: <OrganizationSettingsPage />,
  },
  { path: 'status', title: 'Status', element: <ServiceStatusPage /> },
];

/** The tabs' paths, which the plugin's README names for legacy apps. */
export const LEGACY_TAB_PATHS = TABS.map(tab => tab.path);

/** The header tabs, the one of the current path selected. */
const InfrastructureTabs = () => {
  const base = useResolvedPath('').pathname.replace(/\/+$/, '');
  const { pathname } = useLocation();
  const selected = TABS.findIndex(tab =>
    matchPath({ path: `${base}/${tab.path}`, end: false }, pathname),
  );
  return (
    <HeaderTabs
      selectedIndex={Math.max(selected, 0)}
      tabs={TABS.map(tab => ({
        id: tab.path,
        label: tab.title,
        tabProps: { component: Link, to: `${base}/${tab.path}` },
      }))}
    />
  );
};

/**
 * The Infrastructure page for legacy apps, mounted by the app at one path (e.g.
 * `/infra-delivery`): the Overview, Runs (with a page per run), Projects, Modules, Cloud accounts, Organization
 * and Status tabs under it, and the self-hosted forge login pages at `gitforge/…`, as the
 * new frontend system's page and its sub-pages lay them out.
 */
export const LegacyInfrastructurePage = () => (
  <Page themeId="tool">
    <Header title="Infrastructure" />
    <Routes>
      <Route path="gitforge/*" element={<GitForgeLoginPage />} />
      <Route
        path="*"
        element={
          <>
            <InfrastructureTabs />
            <Routes>
              <Route index element={<Navigate to="overview" replace />} />
              {TABS.map(tab => (
                <Route
                  key={tab.path}
                  path={`${tab.path}/*`}
                  element={tab.element}
                />
              ))}
              <Route path="*" element={<UnknownTab tabs={TABS} />} />
            </Routes>
          </>
        }
      />
    </Routes>
  </Page>
);
