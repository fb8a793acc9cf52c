import { AuditorService, LoggerService } from '@backstage/backend-plugin-api';
import { AccessTokenIssuer } from '../auth/accessTokens';
import { SecretCipher } from '../auth/SecretCipher';
import { Authorizer } from '../auth/Authorizer';
import { Stores } from '../database/stores';
import { DeliveryMetrics } from '../metrics/DeliveryMetrics';
import { PipelineEngine } from '../engine/PipelineEngine';
import { ApiKeyService } from './ApiKeyService';
import { DefaultValueDefinitionService } from './DefaultValueDefinitionService';
import {
  GitSelfHostedService,
  GitSelfHostedSetup,
} from './GitSelfHostedService';
import { IacResultService } from './IacResultService';
import { IdentityService } from './IdentityService';
import { MembershipService } from './MembershipService';
import { PipelineService } from './PipelineService';
import { ProjectService } from './ProjectService';
import { RunnerService } from './RunnerService';
import { ServiceAccountService } from './ServiceAccountService';
import { StackService } from './StackService';
import { DriftService } from './DriftService';
import { CloudContext } from '../cloud/cloudContext';
import { CloudAccountService } from './CloudAccountService';
import { CloudMetricService } from './CloudMetricService';
import { CloudOnboardingService } from './CloudOnboardingService';
import { GithubAppInstallations } from '../providers/github/GithubAppInstallations';
import { CodeSourceService } from './CodeSourceService';
import { ModuleDefinitionService } from './ModuleDefinitionService';
import { ModuleInstanceService } from './ModuleInstanceService';
import { DeploymentFollower } from './DeploymentFollower';
import { DeploymentOptions } from './DeploymentRollout';
import { DeploymentService } from './DeploymentService';
import { StepDeploymentService } from './StepDeploymentService';
import { InfrastructureEventService } from './InfrastructureEventService';
import { RunnerRegistry } from '../runners/RunnerRegistry';
import { GitTriggerService } from './GitTriggerService';
import { WebhookDeliveryService } from './WebhookDeliveryService';
import { MissedWebhookDeliveries } from './MissedWebhookDeliveries';
import { SignupMode } from '../config';
import { PasswordHasher } from '../auth/passwords';
import { CatalogChanges } from '../catalog/CatalogChanges';

/** The domain services, one per resource group. */
export interface Services {
  identity: IdentityService;
  memberships: MembershipService;
  serviceAccounts: ServiceAccountService;
  apiKeys: ApiKeyService;
  projects: ProjectService;
  defaultValueDefinitions: DefaultValueDefinitionService;
  pipelines: PipelineService;
  stacks: StackService;
  drift: DriftService;
  runners: RunnerService;
  iacResults: IacResultService;
  gitSelfHosted: GitSelfHostedService;
  cloudAccounts: CloudAccountService;
  cloudOnboarding: CloudOnboardingService;
  cloudMetrics: CloudMetricService;
  codeSources: CodeSourceService;
  moduleDefinitions: ModuleDefinitionService;
  moduleInstances: ModuleInstanceService;
  deployments: DeploymentService;
  /** The scheduler's tick over deployments in flight. */
  deploymentFollower: DeploymentFollower;
  /** Deployments as the engine's container.deploy steps ask for them. */
  stepDeployments: StepDeploymentService;
  infrastructureEvents: InfrastructureEventService;
  /** GitHub App webhook deliveries and the runs they start. */
  webhookDeliveries: WebhookDeliveryService;
  /** Deliveries GitHub could not make (the portal down), asked for again. */
  missedWebhookDeliveries: MissedWebhookDeliveries;
}

export function createServices(deps: {
  stores: Stores;
  authorizer: Authorizer;
  auditor: AuditorService;
  accessTokens: AccessTokenIssuer;
  engine: PipelineEngine;
  runnerRegistry: RunnerRegistry;
  secrets: SecretCipher;
  gitSelfHosted: GitSelfHostedSetup;
  cloud: CloudContext;
  githubApps: GithubAppInstallations;
  deployments: DeploymentOptions;
  signups: SignupMode;
  passwords: PasswordHasher;
  logger?: LoggerService;
  metrics?: DeliveryMetrics;
  catalogChanges?: CatalogChanges;
}): Services {
  const gitTriggers = new GitTriggerService(deps);
  return {
    identity: new IdentityService(deps),
    memberships: new MembershipService(deps),
    serviceAccounts: new ServiceAccountService(deps),
    apiKeys: new ApiKeyService(deps),
    projects: new ProjectService(deps),
    defaultValueDefinitions: new DefaultValueDefinitionService(deps),
    pipelines: new PipelineService(deps),
    stacks: new StackService(deps),
    drift: new DriftService(deps),
    runners: new RunnerService(deps),
    iacResults: new IacResultService(deps),
    gitSelfHosted: new GitSelfHostedService(deps),
    cloudAccounts: new CloudAccountService(deps),
    cloudOnboarding: new CloudOnboardingService(deps),
    cloudMetrics: new CloudMetricService(deps),
    codeSources: new CodeSourceService(deps),
    moduleDefinitions: new ModuleDefinitionService(deps),
    moduleInstances: new ModuleInstanceService(deps),
    deployments: new DeploymentService(deps),
    deploymentFollower: new DeploymentFollower(deps),
    stepDeployments: new StepDeploymentService(deps),
    infrastructureEvents: new InfrastructureEventService(deps),
    webhookDeliveries: new WebhookDeliveryService({ ...deps, gitTriggers }),
    missedWebhookDeliveries: new MissedWebhookDeliveries(deps),
  };
}
