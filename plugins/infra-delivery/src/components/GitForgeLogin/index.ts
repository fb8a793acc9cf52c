export { GitForgeLoginPage } from './GitForgeLoginPage';
