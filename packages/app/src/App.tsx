import { createApp } from '@backstage/frontend-defaults';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import scaffolderPlugin from '@backstage/plugin-scaffolder/alpha';
import infraDeliveryPlugin from '@infra-delivery/plugin-infra-delivery';
import { navModule } from './modules/nav';

export default createApp({
  features: [catalogPlugin, scaffolderPlugin, infraDeliveryPlugin, navModule],
  bindRoutes({ bind }) {
    // "Create a stack" (after an environment is added, and where no stack is yet) opens the
    // stack template on the scaffolder's Create page.
    bind(infraDeliveryPlugin.externalRoutes, {
      createStack: scaffolderPlugin.routes.selectedTemplate,
    });
  },
});
