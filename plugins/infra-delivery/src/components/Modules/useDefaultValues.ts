import { useApi } from '@backstage/frontend-plugin-api';
import { infraDeliveryApiRef } from '../../api';
import { useReloadableAsync } from '../common/useReloadableAsync';

/** The organization's default-value definitions (the first 500), newest first. */
export function useDefaultValues() {
  const client = useApi(infraDeliveryApiRef);
  return useReloadableAsync(
    async () =>
      (
        await client.call('listDefaultValueDefinitions', {
          query: { limit: 500 },
        })
      ).data,
    [client],
  );
}
