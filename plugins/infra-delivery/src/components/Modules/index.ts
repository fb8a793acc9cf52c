export { ModulesPage } from './ModulesPage';
