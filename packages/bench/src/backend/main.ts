import { createBackend } from '@backstage/backend-defaults';
import { benchPlugin } from './benchPlugin';
import { catalogModuleBenchEntities } from './catalogEntities';

/**
 * The backend the bench loads: the product's infra-delivery and catalog plugins as
 * packages/backend adds them, plus the bench-only floor plugin and catalog entities.
 */
export function startBenchBackend() {
  const backend = createBackend();
  backend.add(import('@backstage/plugin-catalog-backend'));
  backend.add(import('@internal/plugin-catalog-backend-module-infra-delivery'));
  backend.add(import('@backstage/plugin-signals-backend'));
  backend.add(import('@internal/plugin-infra-delivery-backend'));
  backend.add(benchPlugin);
  backend.add(catalogModuleBenchEntities);
  return backend.start();
}
