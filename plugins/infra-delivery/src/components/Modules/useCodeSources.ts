import { useApi } from '@backstage/frontend-plugin-api';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';

/** The repositories connected to the organization (the first 500), to choose from. */
export function useCodeSources() {
  const client = useApi(infraDeliveryApiRef);
  return useAsync(
    async () =>
      (await client.call('listCodeSources', { query: { limit: 500 } })).data,
    [client],
  );
}
