export { InfraDeliveryOverviewCard } from './InfraDeliveryOverviewCard';
export { isInfraDeliveryOverviewAvailable } from './isInfraDeliveryOverviewAvailable';
