import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import {
  AuthorizeResult,
  createPermission,
} from '@backstage/plugin-permission-common';
import { AdminGroupsPermissionPolicy } from './AdminGroupsPermissionPolicy';

const readPermission = createPermission({
  name: 'test.read',
  attributes: { action: 'read' },
});
const deletePermission = createPermission({
  name: 'test.delete',
  attributes: { action: 'delete' },
});

describe('AdminGroupsPermissionPolicy', () => {
  const userInfo = mockServices.userInfo.mock({
    getUserInfo: async credentials => {
      const ref = (credentials.principal as { userEntityRef: string })
        .userEntityRef;
      return {
        userEntityRef: ref,
        ownershipEntityRefs:
          ref === 'user:default/alice'
            ? [ref, 'group:default/Platform-Admins']
            : [ref, 'group:default/developers'],
      };
    },
  });
  const policy = new AdminGroupsPermissionPolicy(
    new Set(['group:default/platform-admins']),
    userInfo,
  );
  const asUser = (ref: string) => ({
    credentials: mockCredentials.user(ref),
    info: { userEntityRef: ref, ownershipEntityRefs: [] },
  });

  it('lets a member of an admin group do everything, whatever the case of the ref', async () => {
    const decision = await policy.handle(
      { permission: deletePermission },
      asUser('user:default/alice'),
    );
    expect(decision.result).toBe(AuthorizeResult.ALLOW);
  });

  it('lets everybody else read', async () => {
    const decision = await policy.handle(
      { permission: readPermission },
      asUser('user:default/bob'),
    );
    expect(decision.result).toBe(AuthorizeResult.ALLOW);
  });

  it('refuses everybody else anything but reading', async () => {
    const decision = await policy.handle(
      { permission: deletePermission },
      asUser('user:default/bob'),
    );
    expect(decision.result).toBe(AuthorizeResult.DENY);
  });

  it('refuses writes without a user', async () => {
    const decision = await policy.handle({ permission: deletePermission });
    expect(decision.result).toBe(AuthorizeResult.DENY);
  });
});
