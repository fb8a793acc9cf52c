import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import { AdminGroupsPermissionPolicy } from './AdminGroupsPermissionPolicy';

/**
 * Sets {@link AdminGroupsPermissionPolicy} as the permission backend's policy, with the
 * users and groups of `permission.policy.admins`.
 *
 * @public
 */
export const permissionModuleAdminGroupsPolicy = createBackendModule({
  pluginId: 'permission',
  moduleId: 'admin-groups-policy',
  register(reg) {
    reg.registerInit({
      deps: {
        config: coreServices.rootConfig,
        policy: policyExtensionPoint,
        userInfo: coreServices.userInfo,
      },
      async init({ config, policy, userInfo }) {
        const admins = new Set(
          (config.getOptionalStringArray('permission.policy.admins') ?? []).map(
            ref => ref.toLocaleLowerCase('en-US'),
          ),
        );
        policy.setPolicy(new AdminGroupsPermissionPolicy(admins, userInfo));
      },
    });
  },
});
