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

/** The last answer of `GET /me`, per client. */
const lastAnswer = new WeakMap<
  Client,
  Awaited<ReturnType<typeof loadCurrentCaller>>
>();

/**
 * One `GET /me` for all the views that mount while it is under way; its answer is kept as
 * what views mounted later start from (asking again all the same).
 */
function currentCaller(client: Client) {
  let pending = asking.get(client);
  if (!pending) {
    pending = loadCurrentCaller(client)
      .then(answer => {
        lastAnswer.set(client, answer);
        return answer;
      })
      .finally(() => asking.delete(client));
    asking.set(client, pending);
  }
  return pending;
}

/**
 * The signed-in person's role in the organization (`GET /me`): `loading` until it is known,
 * `role` undefined when it cannot be read. Views decide what to offer from it; the service
 * checks every request anyway; a view mounted once the role was read starts from that answer.
 * `membershipId` is the person's own membership: what they may
 * do to themselves (step down, leave, revoke their keys) they may not do to others.
 */
export function useCallerRole(): {
  loading: boolean;
  role?: Role;
  membershipId?: string;
} {
  const client = useApi(infraDeliveryApiRef);
  const me = useAsync(() => currentCaller(client), [client]);
  // A view mounted after the role was read (the stack drawer, opened from its table) starts
  // from it: its buttons are drawn with it rather than a moment after.
  const value = me.value ?? (me.loading ? lastAnswer.get(client) : undefined);
  return {
    loading: me.loading && !value,
    role: value?.data.role,
    membershipId: value?.data.membershipId,
  };
}
