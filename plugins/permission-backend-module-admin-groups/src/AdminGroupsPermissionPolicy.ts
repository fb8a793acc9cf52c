import { UserInfoService } from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  PolicyDecision,
} from '@backstage/plugin-permission-common';
import {
  PermissionPolicy,
  PolicyQuery,
  PolicyQueryUser,
} from '@backstage/plugin-permission-node';

/**
 * A portal-wide permission policy: members of the configured admin users and groups may do everything;
 * everybody else may read. Plugins narrow further on their own (the infra-delivery plugin
 * also applies its organization roles).
 *
 * @public
 */
export class AdminGroupsPermissionPolicy implements PermissionPolicy {
  constructor(
    private readonly admins: ReadonlySet<string>,
    private readonly userInfo: UserInfoService,
  ) {}

  async handle(
    request: PolicyQuery,
    user?: PolicyQueryUser,
  ): Promise<PolicyDecision> {
    if (user && (await this.isAdmin(user))) {
      return { result: AuthorizeResult.ALLOW };
    }
    if (request.permission.attributes.action === 'read') {
      return { result: AuthorizeResult.ALLOW };
    }
    return { result: AuthorizeResult.DENY };
  }

  private async isAdmin(user: PolicyQueryUser): Promise<boolean> {
    const { ownershipEntityRefs } = await this.userInfo.getUserInfo(
      user.credentials,
    );
    return ownershipEntityRefs.some(ref =>
      this.admins.has(ref.toLocaleLowerCase('en-US')),
    );
  }
}
