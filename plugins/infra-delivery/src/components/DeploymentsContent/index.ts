export { DeploymentsContent } from './DeploymentsContent';
