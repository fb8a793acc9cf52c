import { Config } from '@backstage/config';
import { AwsCloudProvider } from '../providers/aws/AwsCloudProvider';
import { CloudProvider } from '../providers/CloudProvider';
import { AwsEcsDeploymentProvider } from '../providers/aws/AwsEcsDeploymentProvider';
import { DeploymentProvider } from '../providers/DeploymentProvider';
import { LocalDeploymentProvider } from '../providers/local/LocalDeploymentProvider';
import { LocalTaskDefinitionStore } from '../database/LocalTaskDefinitionStore';

/** `infraDelivery.deployments` and `infraDelivery.events`; config.d.ts documents each key. */
export interface DeploymentSettings {
  /** How long each stage of a simulated deployment takes with the local driver. */
  localStageMillis: number;
  ingestToken?: string;
}

export function readDeploymentSettings(config: Config): DeploymentSettings {
  const localStageMillis =
    config.getOptionalNumber('deployments.localStageMillis') ?? 2000;
  if (!Number.isInteger(localStageMillis) || localStageMillis < 1) {
    throw new Error(
      'infraDelivery.deployments.localStageMillis must be a positive integer',
    );
  }
  const ingestToken = config.getOptionalString('events.ingestToken');
  if (ingestToken !== undefined && ingestToken.length < 32) {
    throw new Error(
      'infraDelivery.events.ingestToken must be at least 32 characters, e.g. `openssl rand -base64 32`',
    );
  }
  return { localStageMillis, ingestToken };
}

/**
 * ECS through the cloud provider's role sessions, or the local simulation, which registers
 * task definitions in the plugin's database.
 */
export function createDeploymentProvider(
  settings: DeploymentSettings,
  cloud: CloudProvider,
  localTaskDefinitions: LocalTaskDefinitionStore,
): DeploymentProvider {
  return cloud instanceof AwsCloudProvider
    ? new AwsEcsDeploymentProvider({
        credentialsFor: account => cloud.credentialsFor(account),
      })
    : new LocalDeploymentProvider({
        stageMillis: settings.localStageMillis,
        taskDefinitions: localTaskDefinitions,
      });
}
