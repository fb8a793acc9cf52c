import { useApi } from '@backstage/frontend-plugin-api';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';

const ADMIN_ROLES = ['OWNER', 'ADMIN'];

/**
 * Whether the signed-in person administers the organization (role ADMIN or OWNER), e.g. may
 * create service accounts; undefined until the role is known. When it cannot be read, false:
 * admin actions stay hidden rather than failing, and the service checks the role anyway.
 */
export function useIsOrganizationAdmin(): boolean | undefined {
  const client = useApi(infraDeliveryApiRef);
  const me = useAsync(() => client.call('getCurrentCaller', {}), [client]);
  if (me.loading) return undefined;
  const role = me.value?.data.role;
  return role !== undefined && ADMIN_ROLES.includes(role);
}
