import { useApi } from '@backstage/frontend-plugin-api';
import { Role } from '@infra-delivery/plugin-infra-delivery-common';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';

type Client = typeof infraDeliveryApiRef.T;

function loadCurrentCaller(client: Client) {
  return client.call('getCurrentCaller', {});
}

/** `GET /me` under way, per client: views mounted together ask once. */
const asking = new WeakMap<Client, ReturnType<typeof loadCurrentCaller>>();

/** One `GET /me` for all the views that mount while it is under way; none kept after it. */
function currentCaller(client: Client) {
  let pending = asking.get(client);
  if (!pending) {
    pending = loadCurrentCaller(client).finally(() => asking.delete(client));
    asking.set(client, pending);
  }
  return pending;
}

/**
 * The signed-in person's role in the organization (`GET /me`): `loading` until it is known,
 * `role` undefined when it cannot be read. Views decide what to offer from it; the service
 * checks every request anyway. `membershipId` is the person's own membership: what they may
 * do to themselves (step down, leave, revoke their keys) they may not do to others.
 */
export function useCallerRole(): {
  loading: boolean;
  role?: Role;
  membershipId?: string;
} {
  const client = useApi(infraDeliveryApiRef);
  const me = useAsync(() => currentCaller(client), [client]);
  return {
    loading: me.loading,
    role: me.value?.data.role,
    membershipId: me.value?.data.membershipId,
  };
}
