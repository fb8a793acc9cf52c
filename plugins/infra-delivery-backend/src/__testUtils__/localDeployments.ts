import { Knex } from 'knex';
import { createStores, Stores } from '../database/stores';
import { DeploymentFollower } from '../services/DeploymentFollower';
import { LocalDeploymentProvider } from '../providers/local/LocalDeploymentProvider';

/** The local driver as the plugin wires it: its revisions in the stores' registry. */
export function localDeployments(stores: Stores, stageMillis: number) {
  return {
    provider: new LocalDeploymentProvider({
      stageMillis,
      taskDefinitions: stores.localTaskDefinitions,
    }),
  };
}

/** One pass of the scheduled follower over the local driver, `stagesLater` stages on. */
export async function followLocalDeployments(
  knex: Knex,
  stageMillis: number,
  stagesLater: number,
): Promise<void> {
  const stores = createStores(knex);
  await new DeploymentFollower({
    stores,
    deployments: localDeployments(stores, stageMillis),
  }).followDeployments(new Date(Date.now() + stagesLater * stageMillis));
}
