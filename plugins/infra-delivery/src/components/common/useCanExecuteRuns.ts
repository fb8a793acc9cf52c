import { usePermission } from '@backstage/plugin-permission-react';
import { infraDeliveryRunExecutePermission } from '@internal/plugin-infra-delivery-common';

/** Whether the portal's permission policy lets the signed-in person act on runs. */
export function useCanExecuteRuns(): boolean {
  const { allowed, loading } = usePermission({
    permission: infraDeliveryRunExecutePermission,
  });
  return !loading && allowed;
}
