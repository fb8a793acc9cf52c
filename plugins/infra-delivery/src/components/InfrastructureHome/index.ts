export { InfrastructureHomePage } from './InfrastructureHomePage';
