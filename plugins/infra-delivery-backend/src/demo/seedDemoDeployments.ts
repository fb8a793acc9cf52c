import { Caller } from '../auth/Caller';
import { Services } from '../services';
import { Stores } from '../database/stores';
import { demoServiceAccountId } from './demoServiceAccount';
import { DEMO_CLOUD_ACCOUNT_ID } from './seedDemoOrganization';

const CLUSTER = 'payments';
const SERVICE = 'payments-api';
/** How long a demo release may take on the local driver's clock before the seed moves on. */
const MAX_FOLLOW_SECONDS = 600;

function taskDefinition(image: string, family = 'payments-api') {
  return {
    family,
    containerDefinitions: [
      {
        name: 'app',
        image: `registry.example.com/payments-api:${image}`,
        portMappings: [{ containerPort: 8080 }],
        environment: [{ name: 'LOG_LEVEL', value: 'info' }],
      },
    ],
    cpu: '256',
    memory: '512',
  };
}

/**
 * Gives the demo service a deployment history through the real deployment service and the
 * local cloud driver: two successful releases and a failed one, so the Deployments tab has
 * something to roll back to. The driver's clock is moved forward instead of waited for, a
 * second at a time until each release has ended.
 * Does nothing when the service has deployments already.
 */
export async function seedDemoDeployments(options: {
  stores: Stores;
  services: Services;
  organizationId: string;
}): Promise<void> {
  const { stores, services, organizationId } = options;
  const seed: Caller = {
    organizationId,
    role: 'OWNER',
    principal: {
      type: 'backstage-service',
      subject: 'infra-delivery:demo-seed',
    },
    credentialKind: 'backstage-service',
  };
  const existing = await services.deployments.list(
    seed,
    { clusterRef: CLUSTER, serviceRef: SERVICE },
    { limit: 1 },
  );
  if (existing.items.length > 0) {
    return;
  }
  // The releases are started by the demo's service account, as its runs are.
  const caller: Caller = {
    ...seed,
    principal: {
      type: 'service-account',
      serviceAccountId: await demoServiceAccountId(stores, organizationId),
    },
  };
  const environment = (
    await stores.projects.listProjects(organizationId, { limit: 500 })
  ).items.find(p => p.givenId === 'payments');
  if (!environment) return;
  const production = (
    await stores.projects.listEnvironments(organizationId, environment.id, {
      limit: 50,
    })
  ).items.find(e => e.givenId === 'production');
  if (!production) return;

  let clock = Date.now();
  const release = async (
    image: string,
    description: string,
    family?: string,
  ) => {
    await services.deployments.create(caller, {
      cloudAccountId: DEMO_CLOUD_ACCOUNT_ID,
      region: 'eu-west-1',
      environmentId: production.id,
      clusterRef: CLUSTER,
      serviceRef: SERVICE,
      taskDefinition: taskDefinition(image, family),
      description,
    });
    // A second of the driver's clock at a time, until the release has ended: the history's
    // times stay within seconds of the real clock (a fixed stretch put them in the future).
    for (let step = 0; step < MAX_FOLLOW_SECONDS; step++) {
      clock = Math.max(clock, Date.now()) + 1_000;
      await services.deploymentFollower.followDeployments(new Date(clock));
      const inFlight = await stores.deployments.listInFlight(50);
      if (
        !inFlight.some(
          d =>
            d.organizationId === organizationId &&
            d.data.serviceRef === SERVICE,
        )
      ) {
        break;
      }
    }
  };
  await release('1.0.0', 'Release 1.0.0');
  await release('1.1.0', 'Release 1.1.0');
  await release(
    '1.2.0',
    'Release 1.2.0 (tasks fail to start)',
    'payments-api-fail',
  );
}
