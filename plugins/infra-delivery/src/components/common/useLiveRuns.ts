import { RUN_SIGNAL_CHANNEL } from '@infra-delivery/plugin-infra-delivery-common';
import { useSignal } from '@backstage/plugin-signals-react';
import { useEffect, useRef } from 'react';

/**
 * Calls `refresh` whenever the backend announces a run change: views stay current without
 * reloading. Without the signals plugin installed nothing is announced and nothing happens.
 */
export function useLiveRuns(refresh: () => void) {
  const { lastSignal } = useSignal(RUN_SIGNAL_CHANNEL);
  // Only a new announcement refreshes: `refresh` changes identity as its own load starts and
  // ends (react-use's retry does), and must not trigger a load by itself.
  const latestRefresh = useRef(refresh);
  latestRefresh.current = refresh;
  useEffect(() => {
    if (lastSignal) {
      latestRefresh.current();
    }
  }, [lastSignal]);
}
