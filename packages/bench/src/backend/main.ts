import { createBackend } from '@backstage/backend-defaults';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import signalsPlugin from '@backstage/plugin-signals-backend';
import catalogModuleInfraDelivery from '@infra-delivery/plugin-catalog-backend-module-infra-delivery';
import infraDeliveryPlugin from '@infra-delivery/plugin-infra-delivery-backend';
import { benchPlugin } from './benchPlugin';
import { catalogModuleBenchEntities } from './catalogEntities';

/**
 * The backend the bench loads: the product's infra-delivery and catalog plugins as
 * packages/backend adds them, plus the bench-only floor plugin and catalog entities. The
 * plugins are imported statically so that the built bundle requires them, and
 * bin/bench-backend can resolve the workspace packages to their builds.
 */
export function startBenchBackend() {
  const backend = createBackend();
  backend.add(catalogPlugin);
  backend.add(catalogModuleInfraDelivery);
  backend.add(signalsPlugin);
  backend.add(infraDeliveryPlugin);
  backend.add(benchPlugin);
  backend.add(catalogModuleBenchEntities);
  return backend.start();
}
