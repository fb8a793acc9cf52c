import { CacheService, LoggerService } from '@backstage/backend-plugin-api';
import {
  buildOpenApiDocument,
  operations,
} from '@infra-delivery/plugin-infra-delivery-common';
import express from 'express';
import Router from 'express-promise-router';
import { GuessBackoff } from './auth/GuessBackoff';
import { RateLimiter } from './auth/RateLimiter';
import { AuthRateLimits } from './auth/RateLimiter';
import { InfraDeliveryError } from './errors';
import { createOperationBinder } from './http/bindOperation';
import { createErrorHandler } from './http/errorHandler';
import { OperationTable } from './http/OperationTable';
import { incrementalJsonBody } from './http/incrementalJsonBody';
import { authenticateFirst, callerResolver } from './http/authenticateFirst';
import { jsonBodyReader } from './http/jsonBody';
import { redactUrlCredentials } from './http/redactUrlCredentials';
import { limitUnansweredRequests } from './http/pipelinedRequests';
import { requestIdMiddleware } from './http/requestId';
import { PluginContext } from './pluginContext';
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
import { registerDriftRoutes } from './routes/driftRoutes';
import { registerCloudRoutes } from './routes/cloudRoutes';
import { registerCodeSourceRoutes } from './routes/codeSourceRoutes';
import { registerModuleRoutes } from './routes/moduleRoutes';
import {
  countRefusedDeliveries,
  githubWebhookGuard,
  registerWebhookRoutes,
} from './routes/webhookRoutes';
import { DeliveryMetrics } from './metrics/DeliveryMetrics';
import {
  ingestTokenGuard,
  registerDeploymentRoutes,
} from './routes/deploymentRoutes';

/** Ordinary request bodies; plan JSON from runners gets its own, larger limit. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;
const RUNNER_BODY_LIMIT = 64 * 1024 * 1024;
/** Runner bodies over this are parsed a slice at a time (see http/incrementalJsonBody.ts). */
const INCREMENTAL_PARSE_THRESHOLD = 256 * 1024;

export interface RouterOptions {
  context: PluginContext;
  logger: LoggerService;
  cache: CacheService;
  rateLimits: AuthRateLimits;
  /** Where 503s for a lost database and refused webhook deliveries are counted. */
  metrics?: DeliveryMetrics;
}

/** The plugin's HTTP surface: one route module per resource group over the shared services. */
export async function createRouter(
  options: RouterOptions,
): Promise<express.Router> {
  const { services, callers, cursors } = options.context;
  const router = Router();
  router.use(limitUnansweredRequests(options.logger));
  router.use(requestIdMiddleware);
  router.use(redactUrlCredentials);
  const ingestGuard = ingestTokenGuard(services);
  router.post(ingestGuard.path, ingestGuard.handler);
  const webhookGuard = githubWebhookGuard(services);
  router.post(webhookGuard.path, ...webhookGuard.handlers);
  const resolveCaller = (req: express.Request) => callers.resolve(req);
  // Runner bodies are read only for a caller with a valid credential; only a step's report
  // (the whole plan) may be large, and it is parsed a slice at a time. Only runners may
  // compress their bodies, inflated under a ratio cap. body-parser skips a body that is
  // parsed already.
  router.use('/runner', authenticateFirst(resolveCaller));
  router.post(
    '/runner/step-executions/:id/complete',
    incrementalJsonBody({
      limit: RUNNER_BODY_LIMIT,
      threshold: INCREMENTAL_PARSE_THRESHOLD,
    }),
  );
  router.use(
    '/runner',
    incrementalJsonBody({
      limit: DEFAULT_BODY_LIMIT,
      threshold: DEFAULT_BODY_LIMIT,
    }),
  );
  // Every operation is served through one table lookup (http/OperationTable.ts).
  const operationTable = new OperationTable();
  router.use(operationTable.middleware());
  const context: RouteContext = {
    bind: createOperationBinder(
      operationTable,
      callerResolver(resolveCaller),
      options.logger,
      options.context.idempotency,
      jsonBodyReader(DEFAULT_BODY_LIMIT),
    ),
    services,
    cursors,
    rateLimiter: new RateLimiter(options.cache),
    rateLimits: options.rateLimits,
    passwordGuesses: new GuessBackoff(
      options.cache,
      options.rateLimits.tokenAttemptsPerEmail,
    ),
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
  registerDriftRoutes(context);
  registerRunnerRoutes(context);
  registerGitSelfHostedRoutes(context);
  registerCloudRoutes(context);
  registerCodeSourceRoutes(context);
  registerModuleRoutes(context);
  registerDeploymentRoutes(context);
  registerWebhookRoutes(context);

  router.use((req, _res, next) => {
    // A path that exists, asked with a method it does not take: 405, saying which it takes.
    const allowed = operationTable.allowedMethods(req.path);
    if (allowed.length > 0) {
      next(
        new InfraDeliveryError({
          status: 405,
          entity: 'Route',
          reason: 'METHOD_NOT_ALLOWED',
          message: `${req.path} does not take ${
            req.method
          }; it takes ${allowed.join(', ')}`,
          metadata: { allowed },
          headers: { Allow: allowed.join(', ') },
        }),
      );
      return;
    }
    next(
      new InfraDeliveryError({
        status: 404,
        entity: 'Route',
        reason: 'NOT_FOUND',
        message: `No operation at ${req.method} ${req.path}`,
      }),
    );
  });
  if (options.metrics) {
    // An error handler of its own route would never see the guard's errors (Express skips
    // routes once an error is pending): mounted as middleware on the endpoint's path.
    router.use(webhookGuard.path, countRefusedDeliveries(options.metrics));
  }
  router.use(createErrorHandler(options.logger, options.metrics));
  return router;
}
