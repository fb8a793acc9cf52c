import { Knex } from 'knex';
import { markIdempotentWork } from './idempotentWork';
import { AccessEpochStore } from './AccessEpochStore';
import { ApiKeyStore } from './ApiKeyStore';
import { DefaultValueDefinitionStore } from './DefaultValueDefinitionStore';
import { GitSelfHostedServerStore } from './GitSelfHostedServerStore';
import { IacResultStore } from './IacResultStore';
import { MembershipStore } from './MembershipStore';
import { OrganizationStore } from './OrganizationStore';
import { PipelineRunStore, RunEndListener } from './PipelineRunStore';
import { RunStatus } from '@infra-delivery/plugin-infra-delivery-common';
import { PipelineStore } from './PipelineStore';
import { ProjectStore } from './ProjectStore';
import { ServiceAccountStore } from './ServiceAccountStore';
import { ServiceSecretStore } from './ServiceSecretStore';
import { StackStore } from './StackStore';
import { StackDriftStore } from './StackDriftStore';
import { UserStore } from './UserStore';
import { CloudAccountStore } from './CloudAccountStore';
import { CodeSourceStore } from './CodeSourceStore';
import { ModuleDefinitionStore } from './ModuleDefinitionStore';
import { ModuleInstanceStore } from './ModuleInstanceStore';
import { DeploymentChangeListener, DeploymentStore } from './DeploymentStore';
import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import { InfrastructureEventStore } from './InfrastructureEventStore';
import { IdempotencyKeyStore } from './IdempotencyKeyStore';
import { RunnerStore } from './RunnerStore';
import { ServiceInstanceStore } from './ServiceInstanceStore';
import { WebhookDeliveryStore } from './WebhookDeliveryStore';
import { GitTriggerHeadStore } from './GitTriggerHeadStore';
import { GithubCheckRunStore } from './GithubCheckRunStore';
import { NotificationOutboxStore } from './NotificationOutboxStore';
import { LocalTaskDefinitionStore } from './LocalTaskDefinitionStore';

/** Every store of the plugin over one Knex handle: the database, or a transaction. */
export interface Stores {
  organizations: OrganizationStore;
  users: UserStore;
  memberships: MembershipStore;
  serviceAccounts: ServiceAccountStore;
  apiKeys: ApiKeyStore;
  /** Moved by every change to members, API keys and service accounts. */
  accessEpoch: AccessEpochStore;
  projects: ProjectStore;
  defaultValueDefinitions: DefaultValueDefinitionStore;
  serviceSecrets: ServiceSecretStore;
  pipelines: PipelineStore;
  pipelineRuns: PipelineRunStore;
  stacks: StackStore;
  stackDrift: StackDriftStore;
  iacResults: IacResultStore;
  cloudAccounts: CloudAccountStore;
  gitSelfHostedServers: GitSelfHostedServerStore;
  codeSources: CodeSourceStore;
  moduleDefinitions: ModuleDefinitionStore;
  moduleInstances: ModuleInstanceStore;
  deployments: DeploymentStore;
  infrastructureEvents: InfrastructureEventStore;
  idempotencyKeys: IdempotencyKeyStore;
  runners: RunnerStore;
  /** The backend instances sharing the database, and since when each was reachable. */
  serviceInstances: ServiceInstanceStore;
  webhookDeliveries: WebhookDeliveryStore;
  gitTriggerHeads: GitTriggerHeadStore;
  githubCheckRuns: GithubCheckRunStore;
  notificationOutbox: NotificationOutboxStore;
  /** The local deployment driver's task definition revisions. */
  localTaskDefinitions: LocalTaskDefinitionStore;
  /** Runs `work` with stores bound to one transaction; it commits when `work` resolves. */
  transaction<T>(work: (stores: Stores) => Promise<T>): Promise<T>;
}

export interface StoreOptions {
  /**
   * Told of deployment writes once they are committed: at once outside a transaction, when
   * the transaction commits inside one (and never for a transaction that rolled back).
   */
  deploymentChanges?: DeploymentChangeListener;
  /** Told of each run a write ended, likewise once the write is committed (the metrics). */
  runEnds?: RunEndListener;
}

export function createStores(db: Knex, options: StoreOptions = {}): Stores {
  const { deploymentChanges, runEnds } = options;
  return {
    organizations: new OrganizationStore(db),
    users: new UserStore(db),
    memberships: new MembershipStore(db),
    serviceAccounts: new ServiceAccountStore(db),
    apiKeys: new ApiKeyStore(db),
    accessEpoch: new AccessEpochStore(db),
    projects: new ProjectStore(db),
    defaultValueDefinitions: new DefaultValueDefinitionStore(db),
    serviceSecrets: new ServiceSecretStore(db),
    pipelines: new PipelineStore(db),
    pipelineRuns: new PipelineRunStore(db, runEnds),
    stacks: new StackStore(db),
    stackDrift: new StackDriftStore(db),
    iacResults: new IacResultStore(db),
    cloudAccounts: new CloudAccountStore(db),
    gitSelfHostedServers: new GitSelfHostedServerStore(db),
    codeSources: new CodeSourceStore(db),
    moduleDefinitions: new ModuleDefinitionStore(db),
    moduleInstances: new ModuleInstanceStore(db),
    deployments: new DeploymentStore(db, deploymentChanges),
    infrastructureEvents: new InfrastructureEventStore(db),
    idempotencyKeys: new IdempotencyKeyStore(db),
    runners: new RunnerStore(db),
    serviceInstances: new ServiceInstanceStore(db),
    webhookDeliveries: new WebhookDeliveryStore(db),
    gitTriggerHeads: new GitTriggerHeadStore(db),
    githubCheckRuns: new GithubCheckRunStore(db),
    notificationOutbox: new NotificationOutboxStore(db),
    localTaskDefinitions: new LocalTaskDefinitionStore(db),
    transaction: async work => {
      if (db.isTransaction) {
        return work(createStores(db, options));
      }
      const committed: Deployment[] = [];
      let ended: RunStatus[] = [];
      const result = await db.transaction(async trx => {
        await markIdempotentWork(trx);
        // A transaction Knex runs again starts with nothing ended.
        ended = [];
        const endedHere = ended;
        return work(
          createStores(trx, {
            deploymentChanges: deploymentChanges && {
              deploymentChanged: async deployment => {
                committed.push(deployment);
              },
            },
            runEnds: runEnds && {
              runEnded: status => endedHere.push(status),
            },
          }),
        );
      });
      for (const status of ended) {
        runEnds?.runEnded(status);
      }
      for (const deployment of committed) {
        await deploymentChanges?.deploymentChanged(deployment);
      }
      return result;
    },
  };
}
