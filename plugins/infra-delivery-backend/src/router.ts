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
import {
  buildOpenApiDocument,
  operations,
} from '@internal/plugin-infra-delivery-common';
import express from 'express';
import Router from 'express-promise-router';
import { AccessTokenIssuer } from './auth/accessTokens';
import { Authorizer } from './auth/Authorizer';
import { CallerResolver, PortalAccessOptions } from './auth/CallerResolver';
import { RateLimiter } from './auth/RateLimiter';
import { createSecretCipher } from './auth/SecretCipher';
import { AuthRateLimits, GitSelfHostedConfig } from './config';
import { Stores } from './database/stores';
import { InfraDeliveryError } from './errors';
import { PipelineEngine } from './engine/PipelineEngine';
import { createOperationBinder } from './http/bindOperation';
import { createErrorHandler } from './http/errorHandler';
import { requestIdMiddleware } from './http/requestId';
import { PageCursors } from './pagination/PageCursors';
import { registerApiKeyRoutes } from './routes/apiKeyRoutes';
import { registerAuthRoutes } from './routes/authRoutes';
import { registerDefaultValueDefinitionRoutes } from './routes/defaultValueDefinitionRoutes';
import { registerGitSelfHostedRoutes } from './routes/gitSelfHostedRoutes';
import { registerIacRoutes } from './routes/iacRoutes';
import { registerMembershipRoutes } from './routes/membershipRoutes';
import { registerPipelineRoutes } from './routes/pipelineRoutes';
import { registerProjectRoutes } from './routes/projectRoutes';
import { RouteContext } from './routes/RouteContext';
import { registerServiceAccountRoutes } from './routes/serviceAccountRoutes';
import { registerRunnerRoutes } from './routes/runnerRoutes';
import { registerServiceRoutes } from './routes/serviceRoutes';
import { registerStackRoutes } from './routes/stackRoutes';
import { createServices } from './services';
import { CloudOptions, createCloudContext } from './cloud/cloudContext';
import { registerCloudRoutes } from './routes/cloudRoutes';
import { createGitSelfHostedSetup } from './services/GitSelfHostedService';
import { GithubAppInstallations } from './providers/github/GithubAppInstallations';
import { registerCodeSourceRoutes } from './routes/codeSourceRoutes';
import { registerModuleRoutes } from './routes/moduleRoutes';
import { registerDeploymentRoutes } from './routes/deploymentRoutes';
import { DeploymentOptions } from './services/DeploymentService';

/** Ordinary request bodies; plan JSON from runners gets its own, larger limit. */
export const DEFAULT_BODY_LIMIT = '1mb';
export const RUNNER_BODY_LIMIT = '64mb';

export interface RouterOptions {
  logger: LoggerService;
  stores: Stores;
  httpAuth: HttpAuthService;
  userInfo: UserInfoService;
  permissions: PermissionsService;
  auditor: AuditorService;
  cache: CacheService;
  portalOrganizationId: string;
  portal: PortalAccessOptions;
  rateLimits: AuthRateLimits;
  engine: PipelineEngine;
  discovery: DiscoveryService;
  secretsKey?: Buffer;
  gitSelfHosted: GitSelfHostedConfig;
  cloud: CloudOptions;
  config: RootConfigService;
  urlReader: UrlReaderService;
  deployments: DeploymentOptions;
}

export async function createRouter(
  options: RouterOptions,
): Promise<express.Router> {
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
  });
  const services = createServices({
    stores,
    authorizer: new Authorizer(options.permissions),
    auditor: options.auditor,
    accessTokens,
    engine: options.engine,
    secrets: await createSecretCipher({
      configuredKey: options.secretsKey,
      serviceSecrets: stores.serviceSecrets,
      logger: options.logger,
    }),
    gitSelfHosted: await createGitSelfHostedSetup({
      stores,
      discovery: options.discovery,
      allowLoopbackHttp: options.gitSelfHosted.allowLoopbackHttp,
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
    logger: options.logger,
  });

  const router = Router();
  router.use(requestIdMiddleware);
  // Runners send whole plans; body-parser skips a body that is parsed already.
  router.use('/runner', express.json({ limit: RUNNER_BODY_LIMIT }));
  router.use(express.json({ limit: DEFAULT_BODY_LIMIT }));

  const context: RouteContext = {
    bind: createOperationBinder(
      router,
      req => callers.resolve(req),
      options.logger,
    ),
    services,
    cursors,
    rateLimiter: new RateLimiter(options.cache),
    rateLimits: options.rateLimits,
  };
  registerServiceRoutes(context.bind, {
    openApiDocument: buildOpenApiDocument(Object.values(operations)),
  });
  registerAuthRoutes(context);
  registerMembershipRoutes(context);
  registerServiceAccountRoutes(context);
  registerApiKeyRoutes(context);
  registerProjectRoutes(context);
  registerDefaultValueDefinitionRoutes(context);
  registerPipelineRoutes(context);
  registerIacRoutes(context);
  registerStackRoutes(context);
  registerRunnerRoutes(context);
  registerGitSelfHostedRoutes(context);
  registerCloudRoutes(context);
  registerCodeSourceRoutes(context);
  registerModuleRoutes(context);
  registerDeploymentRoutes(context);

  router.use((req, _res, next) => {
    next(
      new InfraDeliveryError({
        status: 404,
        entity: 'Route',
        reason: 'NOT_FOUND',
        message: `No operation at ${req.method} ${req.path}`,
      }),
    );
  });
  router.use(createErrorHandler(options.logger));
  return router;
}
