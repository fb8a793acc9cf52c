export { createStackAction } from './createStackAction';
export { triggerRunAction } from './triggerRunAction';
export { createCloudAccountAction } from './createCloudAccountAction';
export { userClientFactory } from './clients';
export type { InfraDeliveryClientFactory } from './clients';
