import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { infraDeliveryPermissions } from '@internal/plugin-infra-delivery-common';
import { readPluginConfig } from './config';
import { applyDatabaseMigrations, tuneSqlite } from './database/migrations';
import { ensurePortalOrganization } from './database/portalOrganization';
import { createStores } from './database/stores';
import { createRouter } from './router';

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
        auditor: coreServices.auditor,
        cache: coreServices.cache,
        config: coreServices.rootConfig,
        database: coreServices.database,
        httpAuth: coreServices.httpAuth,
        httpRouter: coreServices.httpRouter,
        logger: coreServices.logger,
        permissions: coreServices.permissions,
        permissionsRegistry: coreServices.permissionsRegistry,
        userInfo: coreServices.userInfo,
      },
      async init(deps) {
        const { database, httpRouter, permissionsRegistry } = deps;
        const pluginConfig = readPluginConfig(deps.config);
        const knex = await database.getClient();
        await tuneSqlite(knex);
        await applyDatabaseMigrations(database, knex);
        const stores = createStores(knex);
        const portalOrganization = await ensurePortalOrganization(
          stores,
          pluginConfig.portalOrganizationName,
        );

        permissionsRegistry.addPermissions(infraDeliveryPermissions);

        // Every route authenticates its own callers: the plugin accepts its own access
        // tokens and API keys besides Backstage's, which the default policy would refuse.
        httpRouter.addAuthPolicy({ path: '/', allow: 'unauthenticated' });
        httpRouter.use(
          await createRouter({
            ...deps,
            stores,
            portalOrganizationId: portalOrganization.id,
            portal: pluginConfig.portal,
            rateLimits: pluginConfig.rateLimits,
          }),
        );
      },
    });
  },
});
