import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { infraDeliveryPermissions } from '@infra-delivery/plugin-infra-delivery-common';
import { signalsServiceRef } from '@backstage/plugin-signals-node';
import { eventsServiceRef } from '@backstage/plugin-events-node';
import { EventsCatalogChanges } from './catalog/CatalogChanges';
import { readPluginConfig } from './config';
import { markDatabaseErrors } from './database/databaseErrors';
import { applyDatabaseMigrations, tuneSqlite } from './database/migrations';
import { startSqliteCheckpointer } from './database/sqliteCheckpointer';
import { ensurePortalOrganization } from './database/portalOrganization';
import { takeStartupLock } from './database/startupLock';
import { createStores } from './database/stores';
import { SignalsDeploymentEvents } from './deployments/SignalsDeploymentEvents';
import { ContainerDeployStepExecutor } from './engine/ContainerDeployStepExecutor';
import { PipelineEngine, RUNNER_STEP_TYPES } from './engine/PipelineEngine';
import { DeliveryMetrics } from './metrics/DeliveryMetrics';
import { SignalsRunEvents } from './engine/SignalsRunEvents';
import { createPluginContext } from './pluginContext';
import { createRouter } from './router';
import { seedDemoDeployments } from './demo/seedDemoDeployments';
import { seedDemoOrganization } from './demo/seedDemoOrganization';
import { createCloudProvider } from './cloud/cloudSettings';
import { createDeploymentProvider } from './deployments/deploymentSettings';
import { actionsRegistryServiceRef } from '@backstage/backend-plugin-api/alpha';
import { registerActions } from './actions/registerActions';
import { provisionLocalRunner } from './runners/provisionLocalRunner';
import { notificationService } from '@backstage/plugin-notifications-node';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import {
  allRunEvents,
  InfraDeliveryNotifications,
  allDeploymentChanges,
} from './notifications/InfraDeliveryNotifications';
import { NotificationOutbox } from './notifications/NotificationOutbox';
import { ecsServiceEntities } from './notifications/ecsServiceEntities';
import { readNotificationSettings } from './notifications/notificationSettings';
import { PullRequestChecks } from './services/PullRequestChecks';
import { GithubAppInstallations } from './providers/github/GithubAppInstallations';
import { ServiceReachability } from './runners/ServiceReachability';
import { backfillRunChangeSummaries } from './iac/backfillRunChangeSummaries';

/**
 * The infrastructure delivery service.
 *
 * @public
 */
export const infraDeliveryPlugin = createBackendPlugin({
  pluginId: 'infra-delivery',
  register(env) {
    env.registerInit({
      deps: {
        actionsRegistry: actionsRegistryServiceRef,
        auditor: coreServices.auditor,
        auth: coreServices.auth,
        cache: coreServices.cache,
        catalog: catalogServiceRef,
        config: coreServices.rootConfig,
        database: coreServices.database,
        discovery: coreServices.discovery,
        events: eventsServiceRef,
        httpAuth: coreServices.httpAuth,
        httpRouter: coreServices.httpRouter,
        lifecycle: coreServices.lifecycle,
        logger: coreServices.logger,
        notifications: notificationService,
        permissions: coreServices.permissions,
        permissionsRegistry: coreServices.permissionsRegistry,
        scheduler: coreServices.scheduler,
        signals: signalsServiceRef,
        urlReader: coreServices.urlReader,
        userInfo: coreServices.userInfo,
      },
      async init(deps) {
        const { database, httpRouter, permissionsRegistry } = deps;
        const pluginConfig = readPluginConfig(deps.config);
        const knex = await database.getClient();
        markDatabaseErrors(knex);
        await tuneSqlite(knex);
        const checkpointer = await startSqliteCheckpointer(knex, deps.logger);
        if (checkpointer) {
          deps.lifecycle.addShutdownHook(() => checkpointer.stop());
        }
        // Until the scheduler's tables and the shared rows exist, one instance at a time.
        const startupLock = await takeStartupLock(knex);
        await applyDatabaseMigrations(database, knex);
        const portalOrganization = await ensurePortalOrganization(
          createStores(knex),
          pluginConfig.portalOrganizationName,
        );
        // Every committed deployment write is announced to portal users, and a failed or
        // rolled-back deployment is notified to its owners (once the notifier below exists).
        const notifier: { current?: InfraDeliveryNotifications } = {};
        // Recorded through the portal's OpenTelemetry SDK where it has one; no-ops otherwise.
        const metrics = new DeliveryMetrics();
        const stores = createStores(knex, {
          runEnds: metrics,
          deploymentChanges: allDeploymentChanges(
            new SignalsDeploymentEvents(
              deps.signals,
              portalOrganization.id,
              deps.logger,
            ),
            {
              deploymentChanged: async deployment =>
                notifier.current?.deploymentChanged(deployment),
            },
          ),
        });

        permissionsRegistry.addPermissions(infraDeliveryPermissions);

        // What needs a person is also a Backstage notification to the owners concerned, sent
        // from an outbox: after the change, without holding it up, tried again when refused.
        const notificationOutbox = new NotificationOutbox({
          stores,
          notifications: deps.notifications,
          lookUpRecipients: ecsServiceEntities(deps),
          logger: deps.logger,
        });
        deps.lifecycle.addShutdownHook(() => notificationOutbox.idle());
        const notifications = new InfraDeliveryNotifications({
          outbox: notificationOutbox,
          stores,
          portalOrganizationId: portalOrganization.id,
          settings: readNotificationSettings(
            deps.config.getOptionalConfig('infraDelivery'),
          ),
          logger: deps.logger,
        });
        notifier.current = notifications;
        // Pull request plans report to GitHub as their runs move.
        const pullRequestChecks = new PullRequestChecks({
          stores,
          githubApps: GithubAppInstallations.fromConfig(
            deps.config,
            deps.urlReader,
          ),
          portalUrl: pluginConfig.portalUrl,
          logger: deps.logger,
        });
        const engine = new PipelineEngine({
          stores,
          logger: deps.logger,
          events: allRunEvents(
            new SignalsRunEvents(deps.signals, portalOrganization.id),
            notifications,
            pullRequestChecks,
          ),
          leaseSeconds: pluginConfig.leaseSeconds,
          metrics,
        });
        // A frozen backend does not take its runners for stopped when it wakes.
        const stopWatchingPauses = engine.watchForPauses();
        deps.lifecycle.addShutdownHook(() => stopWatchingPauses());
        // Runners' held claims answer at once when the backend stops: they ask again elsewhere.
        deps.lifecycle.addShutdownHook(() => engine.claimWaits.close());
        // A runner's silence counts from the service's return: it cannot be heard while every
        // instance is down. Known from when this instance answers.
        const reachability = new ServiceReachability({
          stores,
          instanceReachableSince: () => engine.instanceReachableSince(),
        });
        let stopWatchingReachability: (() => void) | undefined;
        deps.lifecycle.addStartupHook(async () => {
          stopWatchingReachability = await reachability.watch();
        });
        deps.lifecycle.addShutdownHook(() => stopWatchingReachability?.());
        if (pluginConfig.demoEnabled) {
          await seedDemoOrganization({
            stores,
            engine,
            organizationId: portalOrganization.id,
            logger: deps.logger,
          });
        }
        if (pluginConfig.localRunnerTokenFile) {
          if (process.env.NODE_ENV === 'production') {
            deps.logger.warn(
              'infraDelivery.runners.localRunner is for development and is ignored in production',
            );
          } else {
            await provisionLocalRunner({
              stores,
              organizationId: portalOrganization.id,
              tokenFile: pluginConfig.localRunnerTokenFile,
              logger: deps.logger,
            });
          }
        }
        // Admission and lease expiry also happen inline; the tick is the safety net for
        // work left behind by a stopped instance.
        await deps.scheduler.scheduleTask({
          id: 'infra-delivery-engine-tick',
          frequency: { seconds: 5 },
          timeout: { seconds: 60 },
          initialDelay: { seconds: 5 },
          fn: () => engine.tick(),
        });

        const cloudProvider = createCloudProvider(pluginConfig.cloud);
        const context = await createPluginContext({
          ...deps,
          stores,
          engine,
          portalOrganizationId: portalOrganization.id,
          portal: pluginConfig.portal,
          // The catalog module refreshes at once after a change of what it shows.
          catalogChanges: new EventsCatalogChanges(
            deps.events,
            portalOrganization.id,
            deps.logger,
          ),
          rateLimits: pluginConfig.rateLimits,
          runners: pluginConfig.runners,
          reachability,
          secretsKey: pluginConfig.secretsKey,
          gitSelfHosted: pluginConfig.gitSelfHosted,
          portalUrl: pluginConfig.portalUrl,
          metrics,
          signups: pluginConfig.signups,
          passwordScryptCost: pluginConfig.passwordScryptCost,
          cloud: { settings: pluginConfig.cloud, provider: cloudProvider },
          deployments: {
            provider: createDeploymentProvider(
              pluginConfig.deployments,
              cloudProvider,
              stores.localTaskDefinitions,
            ),
            ingestToken: pluginConfig.deployments.ingestToken,
          },
        });

        if (pluginConfig.demoEnabled) {
          await seedDemoDeployments({
            stores,
            services: context.services,
            organizationId: portalOrganization.id,
          });
        }

        // Deployments, and the container.deploy steps waiting on them, are followed from the
        // database by whichever instance runs the task.
        const containerDeploySteps = new ContainerDeployStepExecutor({
          stores,
          engine,
          deployments: context.services.stepDeployments,
          logger: deps.logger,
        });
        await deps.scheduler.scheduleTask({
          id: 'infra-delivery-deployment-follow',
          frequency: { seconds: 5 },
          timeout: { seconds: 60 },
          initialDelay: { seconds: 5 },
          fn: async () => {
            await context.services.deploymentFollower.followDeployments();
            await containerDeploySteps.tick();
          },
        });
        await startupLock.release();

        // Recorded answers of idempotent requests are replayed for 24 hours, then deleted.
        await deps.scheduler.scheduleTask({
          id: 'infra-delivery-idempotency-key-cleanup',
          frequency: { hours: 1 },
          timeout: { minutes: 5 },
          initialDelay: { minutes: 1 },
          fn: async () => {
            await context.idempotency.deleteExpired();
          },
        });

        // Runs planned before runs carried their change summary get it, a batch at a time.
        await deps.scheduler.scheduleTask({
          id: 'infra-delivery-run-change-summary-backfill',
          frequency: { minutes: 1 },
          timeout: { minutes: 5 },
          initialDelay: { seconds: 15 },
          fn: async () => {
            await backfillRunChangeSummaries(stores.pipelineRuns);
          },
        });

        // Runners not seen for the retention period disappear from the registry.
        await deps.scheduler.scheduleTask({
          id: 'infra-delivery-runner-cleanup',
          frequency: { hours: 1 },
          timeout: { minutes: 5 },
          initialDelay: { minutes: 2 },
          fn: async () => {
            await context.runnerRegistry.forgetOfflineRunners();
            await reachability.forgetGoneInstances();
          },
        });

        // Drift checks of stacks with a drift schedule; each due check starts once.
        await deps.scheduler.scheduleTask({
          id: 'infra-delivery-drift-checks',
          frequency: { minutes: 1 },
          timeout: { minutes: 5 },
          initialDelay: { seconds: 30 },
          fn: async () => {
            await context.services.drift.startDueChecks();
          },
        });

        // Webhook deliveries a stopped instance left, or that failed for a while; check runs
        // GitHub did not take the first time.
        await deps.scheduler.scheduleTask({
          id: 'infra-delivery-git-triggers',
          frequency: { seconds: 30 },
          timeout: { minutes: 5 },
          initialDelay: { seconds: 20 },
          fn: async () => {
            await context.services.webhookDeliveries.processPending();
            await pullRequestChecks.reportPending();
          },
        });

        // GitHub sends a failed webhook delivery only once: those the portal missed (down,
        // restarting, its database away) are asked for again.
        await deps.scheduler.scheduleTask({
          id: 'infra-delivery-webhook-redeliveries',
          frequency: { minutes: 5 },
          timeout: { minutes: 5 },
          initialDelay: { minutes: 1 },
          fn: async () => {
            await context.services.missedWebhookDeliveries.redeliverMissed();
          },
        });

        // Notifications the notifications backend refused (starting up, down), and those a
        // stopped instance left.
        await deps.scheduler.scheduleTask({
          id: 'infra-delivery-notifications',
          frequency: { seconds: 10 },
          timeout: { minutes: 5 },
          initialDelay: { seconds: 10 },
          fn: async () => {
            await notificationOutbox.sendDue();
          },
        });

        // The queue's gauges: three index counts, at most every QUEUE_READ_INTERVAL_MS.
        const stopObservingQueue = metrics.observeQueue(async () => {
          const [queue, onlineRunners] = await Promise.all([
            stores.pipelineRuns.countQueue(RUNNER_STEP_TYPES),
            context.runnerRegistry.countOnlineEverywhere(),
          ]);
          return {
            queuedRuns: queue.queuedRuns,
            stepsWaitingForRunner: queue.queuedSteps,
            onlineRunners,
          };
        });
        deps.lifecycle.addShutdownHook(() => stopObservingQueue());

        // Tools for the actions registry (MCP clients), run as the invoking caller.
        await registerActions({
          actionsRegistry: deps.actionsRegistry,
          context,
        });

        // Every route authenticates its own callers: the plugin accepts its own access
        // tokens and API keys besides Backstage's, which the default policy would refuse.
        httpRouter.addAuthPolicy({ path: '/', allow: 'unauthenticated' });
        httpRouter.use(
          await createRouter({
            context,
            logger: deps.logger,
            cache: deps.cache,
            rateLimits: pluginConfig.rateLimits,
            metrics,
          }),
        );
      },
    });
  },
});
