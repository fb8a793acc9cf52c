import { RUN_SIGNAL_CHANNEL } from '@internal/plugin-infra-delivery-common';
import { useSignal } from '@backstage/plugin-signals-react';
import { useEffect } from 'react';

/**
 * Calls `refresh` whenever the backend announces a run change: views stay current without
 * reloading. Without the signals plugin installed nothing is announced and nothing happens.
 */
export function useLiveRuns(refresh: () => void) {
  const { lastSignal } = useSignal(RUN_SIGNAL_CHANNEL);
  useEffect(() => {
    if (lastSignal) {
      refresh();
    }
  }, [lastSignal, refresh]);
}
