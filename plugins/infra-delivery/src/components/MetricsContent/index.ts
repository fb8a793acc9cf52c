export { MetricsContent } from './MetricsContent';
export { isInfraDeliveryMetricsAvailable } from './metricSpecs';
