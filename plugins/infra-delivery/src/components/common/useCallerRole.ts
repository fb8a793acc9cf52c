import { useApi } from '@backstage/frontend-plugin-api';
import { Role } from '@infra-delivery/plugin-infra-delivery-common';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';

/**
 * The signed-in person's role in the organization (`GET /me`): `loading` until it is known,
 * `role` undefined when it cannot be read. Views decide what to offer from it; the service
 * checks every request anyway.
 */
export function useCallerRole(): { loading: boolean; role?: Role } {
  const client = useApi(infraDeliveryApiRef);
  const me = useAsync(() => client.call('getCurrentCaller', {}), [client]);
  return { loading: me.loading, role: me.value?.data.role };
}
