import {
  ApiBlueprint,
  coreExtensionData,
  createFrontendPlugin,
  PageBlueprint,
  SubPageBlueprint,
} from '@backstage/frontend-plugin-api';
import {
  EntityCardBlueprint,
  EntityContentBlueprint,
} from '@backstage/plugin-catalog-react/alpha';
import { FormFieldBlueprint } from '@backstage/plugin-scaffolder-react/alpha';
import CloudQueueIcon from '@material-ui/icons/CloudQueue';
import { infraDeliveryApiFactory } from './api';
import {
  isInfraDeliveryDeploymentsAvailable,
  isInfraDeliveryStacksAvailable,
} from './availability';
import { isInfraDeliveryOverviewAvailable } from './components/EntityOverviewCard/isInfraDeliveryOverviewAvailable';
import { isInfraDeliveryMetricsAvailable } from './components/MetricsContent/metricSpecs';
import { ENTITY_TAB_PATHS } from './entityTabPaths';
import { createStackRouteRef, rootRouteRef } from './routes';
import { KnownTabsOnly } from './components/UnknownTab';
import { RUNS_TAB_PATH } from './components/common/useInfrastructurePath';

export const infraDeliveryApi = ApiBlueprint.make({
  params: defineParams => defineParams(infraDeliveryApiFactory),
});

/**
 * The Infrastructure page; its sub-pages are its tabs. At a path under none of them it says so
 * (the framework's page would show its tabs above nothing).
 */
export const infraDeliveryPage = PageBlueprint.makeWithOverrides({
  *factory(originalFactory, { inputs }) {
    const title = 'Infrastructure';
    const icon = <CloudQueueIcon fontSize="inherit" />;
    const page = originalFactory({
      path: '/infra-delivery',
      title,
      icon,
      routeRef: rootRouteRef,
    });
    const pageTitle = page.get(coreExtensionData.title) ?? title;
    const tabs = inputs.pages.map(subPage => {
      const path = subPage.get(coreExtensionData.routePath);
      return { path, title: subPage.get(coreExtensionData.title) ?? path };
    });
    yield coreExtensionData.routePath(page.get(coreExtensionData.routePath));
    yield coreExtensionData.reactElement(
      <KnownTabsOnly
        page={page.get(coreExtensionData.reactElement)}
        tabs={tabs}
        title={pageTitle}
        icon={icon}
      />,
    );
    yield coreExtensionData.routeRef(rootRouteRef);
    yield coreExtensionData.title(pageTitle);
    yield coreExtensionData.icon(icon);
  },
});

/**
 * The self-hosted forge login pages, outside the tabs: where "Log in to …" links lead and the
 * servers' OAuth callback (`infraDelivery.portalUrl` + `/gitforge/callback` on the backend).
 */
export const gitForgeLoginPage = PageBlueprint.make({
  name: 'gitforge-login',
  params: {
    path: '/infra-delivery/gitforge',
    title: 'Infrastructure',
    loader: () =>
      import('./components/GitForgeLogin').then(m => <m.GitForgeLoginPage />),
  },
});

/**
 * The first tab, where `/infra-delivery` leads: what waits for approval, what failed lately,
 * the stacks with their last run and the cloud accounts to upgrade.
 */
export const overviewSubPage = SubPageBlueprint.make({
  name: 'overview',
  params: {
    path: 'overview',
    title: 'Overview',
    loader: () =>
      import('./components/InfrastructureHome').then(m => (
        <m.InfrastructureHomePage />
      )),
  },
});

/** Every run of the organization, filtered by status, and a page per run (`runs/<runId>`). */
export const runsSubPage = SubPageBlueprint.make({
  name: 'runs',
  params: {
    path: RUNS_TAB_PATH,
    title: 'Runs',
    loader: () =>
      import('./components/PipelineRunsContent').then(m => (
        <m.OrganizationRunsPage />
      )),
  },
});

/** The last tab: whether the service answers, whether work flows, and which API it serves. */
export const serviceStatusSubPage = SubPageBlueprint.make({
  name: 'status',
  params: {
    path: 'status',
    title: 'Status',
    loader: () =>
      import('./components/ServiceStatusPage').then(m => (
        <m.ServiceStatusPage />
      )),
  },
});

export const organizationSubPage = SubPageBlueprint.make({
  name: 'organization',
  params: {
    path: 'organization',
    title: 'Organization',
    loader: () =>
      import('./components/OrganizationSettings').then(m => (
        <m.OrganizationSettingsPage />
      )),
  },
});

/** The organization's projects and their environments (`?project=<id>`), where stacks go. */
export const projectsSubPage = SubPageBlueprint.make({
  name: 'projects',
  params: {
    path: 'projects',
    title: 'Projects',
    loader: () => import('./components/Projects').then(m => <m.ProjectsPage />),
  },
});

/** The organization's modules, their versions and where they are deployed (`?module=<id>`). */
export const modulesSubPage = SubPageBlueprint.make({
  name: 'modules',
  params: {
    path: 'modules',
    title: 'Modules',
    loader: () => import('./components/Modules').then(m => <m.ModulesPage />),
  },
});

export const cloudAccountsSubPage = SubPageBlueprint.make({
  name: 'cloud-accounts',
  params: {
    path: 'cloud-accounts',
    // "Accounts" beside Projects and Modules: "Cloud accounts" took two lines in the
    // header's tabs in an 800 px window. Its page says "Cloud accounts".
    title: 'Accounts',
    loader: () =>
      import('./components/CloudAccounts').then(m => <m.CloudAccountsPage />),
  },
});

export const entityStacksContent = EntityContentBlueprint.make({
  name: 'stacks',
  params: {
    path: ENTITY_TAB_PATHS.stacks,
    title: 'Stacks',
    filter: isInfraDeliveryStacksAvailable,
    loader: () =>
      import('./components/StacksContent').then(m => <m.StacksContent />),
  },
});

export const entityPipelineRunsContent = EntityContentBlueprint.make({
  name: 'pipeline-runs',
  params: {
    path: ENTITY_TAB_PATHS.runs,
    title: 'Pipeline runs',
    filter: isInfraDeliveryStacksAvailable,
    loader: () =>
      import('./components/PipelineRunsContent').then(m => (
        <m.PipelineRunsContent />
      )),
  },
});

export const entityDeploymentsContent = EntityContentBlueprint.make({
  name: 'deployments',
  params: {
    path: ENTITY_TAB_PATHS.deployments,
    title: 'Deployments',
    filter: isInfraDeliveryDeploymentsAvailable,
    loader: () =>
      import('./components/DeploymentsContent').then(m => (
        <m.DeploymentsContent />
      )),
  },
});

export const entityMetricsContent = EntityContentBlueprint.make({
  name: 'metrics',
  params: {
    path: ENTITY_TAB_PATHS.metrics,
    title: 'Metrics',
    filter: isInfraDeliveryMetricsAvailable,
    loader: () =>
      import('./components/MetricsContent').then(m => <m.MetricsContent />),
  },
});

/**
 * The Infrastructure card on the Overview tab of entities that name stacks or their ECS
 * service: the newest run, the stacks with their last run, the newest deployment.
 */
export const entityOverviewCard = EntityCardBlueprint.make({
  name: 'overview',
  params: {
    filter: isInfraDeliveryOverviewAvailable,
    loader: () =>
      import('./components/EntityOverviewCard').then(m => (
        <m.InfraDeliveryOverviewCard />
      )),
  },
});

/**
 * Template form fields: the project and environment, the cloud account and the code source of
 * a new stack, chosen by name, and the runner labels it requires (`ui:field: InfraDeliveryEnvironmentPicker` and the others in
 * `components/ScaffolderFields/formFields.ts`). They attach to the scaffolder's form; an app
 * without the scaffolder has nothing for them to attach to and leaves them out.
 */
export const environmentPickerFormField = FormFieldBlueprint.make({
  name: 'environment-picker',
  params: {
    field: () =>
      import('./components/ScaffolderFields/formFields').then(
        m => m.environmentPickerField,
      ),
  },
});

export const cloudAccountPickerFormField = FormFieldBlueprint.make({
  name: 'cloud-account-picker',
  params: {
    field: () =>
      import('./components/ScaffolderFields/formFields').then(
        m => m.cloudAccountPickerField,
      ),
  },
});

export const codeSourcePickerFormField = FormFieldBlueprint.make({
  name: 'code-source-picker',
  params: {
    field: () =>
      import('./components/ScaffolderFields/formFields').then(
        m => m.codeSourcePickerField,
      ),
  },
});

export const runnerLabelsFormField = FormFieldBlueprint.make({
  name: 'runner-labels',
  params: {
    field: () =>
      import('./components/ScaffolderFields/formFields').then(
        m => m.runnerLabelsField,
      ),
  },
});

/**
 * Infrastructure delivery in the portal.
 *
 * @public
 */
export const infraDeliveryPlugin = createFrontendPlugin({
  pluginId: 'infra-delivery',
  extensions: [
    infraDeliveryApi,
    infraDeliveryPage,
    gitForgeLoginPage,
    // The first sub-page is the tab the page opens on.
    overviewSubPage,
    runsSubPage,
    projectsSubPage,
    modulesSubPage,
    cloudAccountsSubPage,
    organizationSubPage,
    serviceStatusSubPage,
    entityOverviewCard,
    entityStacksContent,
    entityPipelineRunsContent,
    entityDeploymentsContent,
    entityMetricsContent,
    environmentPickerFormField,
    cloudAccountPickerFormField,
    codeSourcePickerFormField,
    runnerLabelsFormField,
  ],
  routes: { root: rootRouteRef },
  externalRoutes: { createStack: createStackRouteRef },
});
