import {
  AuditorService,
  CacheService,
  DiscoveryService,
  HttpAuthService,
  LoggerService,
  PermissionsService,
  RootConfigService,
  UrlReaderService,
  UserInfoService,
} from '@backstage/backend-plugin-api';
import { AccessTokenIssuer } from './auth/accessTokens';
import { Authorizer } from './auth/Authorizer';
import { CallerResolver, PortalAccessOptions } from './auth/CallerResolver';
import { createSecretCipher } from './auth/SecretCipher';
import { PasswordHasher } from './auth/passwords';
import { AuthRateLimits, RateLimiter } from './auth/RateLimiter';
import { GitSelfHostedConfig, SignupMode } from './config';
import { Stores } from './database/stores';
import { PipelineEngine } from './engine/PipelineEngine';
import { DeliveryMetrics } from './metrics/DeliveryMetrics';
import { PageCursors } from './pagination/PageCursors';
import { createServices, Services } from './services';
import { CatalogChanges } from './catalog/CatalogChanges';
import { CloudOptions, createCloudContext } from './cloud/cloudContext';
import { createGitSelfHostedSetup } from './services/GitSelfHostedService';
import { GithubAppInstallations } from './providers/github/GithubAppInstallations';
import { DeploymentOptions } from './services/DeploymentRollout';
import { IdempotentRequests } from './http/IdempotentRequests';
import { RunnerRegistry, RunnerSettings } from './runners/RunnerRegistry';
import { ServiceReachability } from './runners/ServiceReachability';

export interface PluginContextOptions {
  logger: LoggerService;
  stores: Stores;
  httpAuth: HttpAuthService;
  userInfo: UserInfoService;
  permissions: PermissionsService;
  auditor: AuditorService;
  cache: CacheService;
  portalOrganizationId: string;
  portal: PortalAccessOptions;
  engine: PipelineEngine;
  discovery: DiscoveryService;
  secretsKey?: Buffer;
  gitSelfHosted: GitSelfHostedConfig;
  /** The frontend plugin's Infrastructure page (`infraDelivery.portalUrl`). */
  portalUrl: string;
  /** Who may sign up (`infraDelivery.signups`). */
  signups: SignupMode;
  /** scrypt's cost for passwords set from now on (`infraDelivery.passwords.scryptCost`). */
  passwordScryptCost: number;
  cloud: CloudOptions;
  config: RootConfigService;
  urlReader: UrlReaderService;
  deployments: DeploymentOptions;
  rateLimits: AuthRateLimits;
  runners: RunnerSettings;
  /** Since when the service could hear runners (all instances). */
  reachability?: ServiceReachability;
  /** Where stack, project and environment changes are announced for the catalog module. */
  catalogChanges?: CatalogChanges;
  metrics?: DeliveryMetrics;
}

/** What the router and the actions registry share: one set of services and caller resolution. */
export interface PluginContext {
  services: Services;
  callers: CallerResolver;
  cursors: PageCursors;
  authorizer: Authorizer;
  idempotency: IdempotentRequests;
  runnerRegistry: RunnerRegistry;
}

/** Builds the plugin's services once, at start-up. */
export async function createPluginContext(
  options: PluginContextOptions,
): Promise<PluginContext> {
  const { stores } = options;
  const accessTokens = new AccessTokenIssuer(
    await stores.serviceSecrets.getOrCreate('access-token-signing-key'),
  );
  const cursors = new PageCursors(
    await stores.serviceSecrets.getOrCreate('page-cursor-signing-key'),
  );
  const callers = new CallerResolver({
    stores,
    httpAuth: options.httpAuth,
    userInfo: options.userInfo,
    accessTokens,
    portalOrganizationId: options.portalOrganizationId,
    portal: options.portal,
    apiKeyFailures: {
      limiter: new RateLimiter(options.cache),
      perAddress: options.rateLimits.apiKeyFailuresPerAddress,
    },
  });
  const authorizer = new Authorizer(options.permissions);
  const secrets = await createSecretCipher({
    configuredKey: options.secretsKey,
    serviceSecrets: stores.serviceSecrets,
    logger: options.logger,
  });
  const runnerRegistry = new RunnerRegistry({
    stores,
    settings: options.runners,
    reachability: options.reachability,
  });
  const services = createServices({
    stores,
    runnerRegistry,
    authorizer,
    auditor: options.auditor,
    accessTokens,
    engine: options.engine,
    secrets,
    gitSelfHosted: await createGitSelfHostedSetup({
      stores,
      allowLoopbackHttp: options.gitSelfHosted.allowLoopbackHttp,
      portalUrl: options.portalUrl,
    }),
    cloud: await createCloudContext({
      ...options.cloud,
      stores,
      cache: options.cache,
      discovery: options.discovery,
    }),
    githubApps: GithubAppInstallations.fromConfig(
      options.config,
      options.urlReader,
    ),
    deployments: options.deployments,
    signups: options.signups,
    passwords: new PasswordHasher(options.passwordScryptCost),
    logger: options.logger,
    catalogChanges: options.catalogChanges,
    metrics: options.metrics,
  });

  return {
    services,
    callers,
    cursors,
    authorizer,
    idempotency: new IdempotentRequests(stores.idempotencyKeys, secrets),
    runnerRegistry,
  };
}
