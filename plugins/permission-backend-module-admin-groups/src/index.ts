/**
 * A permission policy for portals that run the infra-delivery plugins: the configured admin
 * users and groups may do everything, everybody else may read.
 *
 * @packageDocumentation
 */
export { permissionModuleAdminGroupsPolicy as default } from './module';
export { AdminGroupsPermissionPolicy } from './AdminGroupsPermissionPolicy';
