import {
  containerDeployStepConfigSchema,
  PipelineStep,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Stores } from '../database/stores';
import { InfraDeliveryError } from '../errors';

/**
 * Refuses steps whose settings name what the organization does not have, when the pipeline is
 * created or versioned rather than when a run of it fails: a `container.deploy` step's cloud
 * account, environment and module instance, checked as `POST /deployments` checks the same
 * fields (404; another organization's id reads as missing).
 */
export async function requireStepReferences(
  stores: Stores,
  organizationId: string,
  steps: PipelineStep[],
): Promise<void> {
  for (const [index, step] of steps.entries()) {
    if (step.type !== 'container.deploy') {
      continue;
    }
    const parsed = containerDeployStepConfigSchema.safeParse(step.config);
    if (!parsed.success) {
      // The request schema refuses such a config before the service sees it.
      continue;
    }
    const config = parsed.data;
    const missing = (entity: string, field: string, id: string) =>
      new InfraDeliveryError({
        status: 404,
        entity,
        reason: 'NOT_FOUND',
        message: `${entity} ${id} was not found: step "${step.name}" (steps[${index}]) names it as config.${field}`,
        metadata: {
          id,
          stepName: step.name,
          field: `steps.${index}.config.${field}`,
        },
      });
    if (
      !(await stores.cloudAccounts.get(organizationId, config.cloudAccountId))
    ) {
      throw missing('CloudAccount', 'cloudAccountId', config.cloudAccountId);
    }
    if (
      !(await stores.moduleInstances.projectOfEnvironment(
        organizationId,
        config.environmentId,
      ))
    ) {
      throw missing('Environment', 'environmentId', config.environmentId);
    }
    if (config.moduleInstanceId) {
      const instance = await stores.moduleInstances.get(
        organizationId,
        config.moduleInstanceId,
      );
      // As a deployment, a step deploys a module instance of its own environment.
      if (!instance || instance.environmentId !== config.environmentId) {
        throw missing(
          'ModuleInstance',
          'moduleInstanceId',
          config.moduleInstanceId,
        );
      }
    }
  }
}
