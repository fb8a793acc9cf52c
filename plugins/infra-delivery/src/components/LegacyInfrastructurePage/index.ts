export { LegacyInfrastructurePage } from './LegacyInfrastructurePage';
