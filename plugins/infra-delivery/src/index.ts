/**
 * Infrastructure delivery in the portal.
 *
 * @packageDocumentation
 */
export { infraDeliveryPlugin as default } from './plugin';
export { infraDeliveryApiRef } from './api';
export {
  isInfraDeliveryDeploymentsAvailable,
  isInfraDeliveryStacksAvailable,
} from './availability';
export { isInfraDeliveryMetricsAvailable } from './components/MetricsContent/metricSpecs';
export { isInfraDeliveryOverviewAvailable } from './components/EntityOverviewCard/isInfraDeliveryOverviewAvailable';
export {
  legacyInfraDeliveryPlugin,
  InfraDeliveryStatusPage,
  InfraDeliveryHomePage,
  EntityInfraDeliveryOverviewCard,
  EntityInfraDeliveryStacksContent,
  EntityInfraDeliveryPipelineRunsContent,
  EntityInfraDeliveryMetricsContent,
  EntityInfraDeliveryDeploymentsContent,
  InfraDeliveryCloudAccountsPage,
} from './legacy';
export {
  EnvironmentPicker,
  validateEnvironmentChoice,
  CloudAccountPicker,
  CodeSourcePicker,
  RunnerLabelsInput,
  validateRunnerLabels,
} from './components/ScaffolderFields';
export type {
  EnvironmentChoice,
  ServiceChoice,
} from './components/ScaffolderFields';
