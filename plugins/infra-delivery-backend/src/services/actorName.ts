import { Caller } from '../auth/Caller';
import { Stores } from '../database/stores';

/**
 * The caller as people call them, for what the service writes about what they did ("walk-runner's
 * API key was revoked by guest"): a member by their name (the Backstage user's name for a
 * Backstage sign-in), a service account by its name, a Backstage plugin by its subject.
 */
export async function actorNameOf(
  stores: Stores,
  caller: Caller,
): Promise<string> {
  const { principal } = caller;
  switch (principal.type) {
    case 'membership': {
      const user = await stores.users.get(principal.userId);
      return (
        user?.fullName ??
        user?.shortName ??
        user?.backstageUserRef?.replace(/^.*[:/]/, '') ??
        user?.email ??
        'a member'
      );
    }
    case 'service-account': {
      const account = await stores.serviceAccounts.get(
        caller.organizationId,
        principal.serviceAccountId,
      );
      return account?.name ?? 'a service account';
    }
    default:
      return principal.subject;
  }
}
