import { createApp } from '@backstage/frontend-defaults';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import infraDeliveryPlugin from '@internal/plugin-infra-delivery';
import { navModule } from './modules/nav';

export default createApp({
  features: [catalogPlugin, infraDeliveryPlugin, navModule],
});
