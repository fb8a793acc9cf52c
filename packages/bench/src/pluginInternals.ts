/*
 * The bench drives the plugin's own migrations and stores, which the plugin package does not
 * export to production callers: the bench is a development tool in the same repository, the
 * one place that reaches into the plugin's sources.
 */
/* eslint-disable @backstage/no-forbidden-package-imports */
export { PasswordHasher } from '@infra-delivery/plugin-infra-delivery-backend/src/auth/passwords';
export {
  newId,
  uuidV7,
} from '@infra-delivery/plugin-infra-delivery-backend/src/database/ids';
export { applyDatabaseMigrations } from '@infra-delivery/plugin-infra-delivery-backend/src/database/migrations';
export {
  createStores,
  type Stores,
} from '@infra-delivery/plugin-infra-delivery-backend/src/database/stores';
export { parsePlanJson } from '@infra-delivery/plugin-infra-delivery-backend/src/iac/planJson';
export { plannedResourcesOf } from '@infra-delivery/plugin-infra-delivery-backend/src/iac/planResources';
export {
  PipelineEngine,
  RUNNER_STEP_TYPES,
} from '@infra-delivery/plugin-infra-delivery-backend/src/engine/PipelineEngine';
export { changePipelineSteps } from '@infra-delivery/plugin-infra-delivery-backend/src/services/StackService';
