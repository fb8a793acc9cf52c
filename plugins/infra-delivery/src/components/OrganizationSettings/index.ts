export { OrganizationSettingsPage } from './OrganizationSettingsPage';
