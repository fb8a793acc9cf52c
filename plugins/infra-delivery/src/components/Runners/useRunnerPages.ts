import { useApi } from '@backstage/frontend-plugin-api';
import { useCallback, useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { useReloadableAsync } from '../common/useReloadableAsync';

/** Runners per page. */
export const RUNNERS_PAGE_SIZE = 20;

/** The organization's runners a page at a time, walked through the service's cursors. */
export function useRunnerPages() {
  const client = useApi(infraDeliveryApiRef);
  // The cursors of the pages walked so far: the last one is the page shown (undefined: first).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useReloadableAsync(
    () =>
      client.call('listRunners', {
        query: { limit: RUNNERS_PAGE_SIZE, ...(cursor ? { cursor } : {}) },
      }),
    [client, cursor],
  );
  const nextCursor = page.value?.meta.nextCursor ?? undefined;
  const next = useCallback(() => {
    if (nextCursor) setCursors(c => [...c, nextCursor]);
  }, [nextCursor]);
  const previous = useCallback(() => setCursors(c => c.slice(0, -1)), []);
  const firstPage = useCallback(() => setCursors([undefined]), []);

  return {
    ...page,
    /** The position of the page's first runner, counting from 1. */
    first: (cursors.length - 1) * RUNNERS_PAGE_SIZE + 1,
    hasPrevious: cursors.length > 1,
    hasNext: Boolean(nextCursor),
    next,
    previous,
    firstPage,
  };
}
