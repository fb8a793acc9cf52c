export { CloudAccountsPage } from './CloudAccountsPage';
