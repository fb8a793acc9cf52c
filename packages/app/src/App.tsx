import { createApp } from '@backstage/frontend-defaults';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import infraDeliveryPlugin from '@infra-delivery/plugin-infra-delivery';
import { navModule } from './modules/nav';

export default createApp({
  features: [catalogPlugin, infraDeliveryPlugin, navModule],
});
