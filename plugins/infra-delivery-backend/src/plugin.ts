import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { applyDatabaseMigrations, tuneSqlite } from './database/migrations';
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
        database: coreServices.database,
        httpRouter: coreServices.httpRouter,
        logger: coreServices.logger,
      },
      async init({ database, httpRouter, logger }) {
        const knex = await database.getClient();
        await tuneSqlite(knex);
        await applyDatabaseMigrations(database, knex);

        // Every route authenticates its own callers: the plugin accepts its own access
        // tokens and API keys besides Backstage's, which the default policy would refuse.
        httpRouter.addAuthPolicy({ path: '/', allow: 'unauthenticated' });
        httpRouter.use(await createRouter({ logger }));
      },
    });
  },
});
