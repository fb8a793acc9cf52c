export { ServiceStatusPage } from './ServiceStatusPage';
