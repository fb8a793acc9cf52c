import {
  DEPLOYMENT_SIGNAL_CHANNEL,
  DeploymentChangeSignal,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useSignal } from '@backstage/plugin-signals-react';
import { useEffect, useRef } from 'react';

/** The name in an ECS ref: the last segment of an ARN, or the ref itself. */
export function ecsName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/**
 * Calls `refresh` whenever the backend announces a change of a deployment of this service.
 * Returns whether announcements can arrive at all: without the signals plugin in the app
 * nothing is announced, and the caller has to refresh by itself.
 */
export function useLiveDeployments(
  service: { clusterRef: string; serviceRef: string },
  refresh: () => void,
): boolean {
  const { lastSignal, isSignalsAvailable } = useSignal<DeploymentChangeSignal>(
    DEPLOYMENT_SIGNAL_CHANNEL,
  );
  const clusterName = ecsName(service.clusterRef);
  const serviceName = ecsName(service.serviceRef);
  // Only a new announcement refreshes: `refresh` changes identity as its own load starts and
  // ends (react-use's retry does), and must not trigger a load by itself.
  const latestRefresh = useRef(refresh);
  latestRefresh.current = refresh;
  useEffect(() => {
    if (
      lastSignal &&
      lastSignal.clusterName === clusterName &&
      lastSignal.serviceName === serviceName
    ) {
      latestRefresh.current();
    }
  }, [lastSignal, clusterName, serviceName]);
  return isSignalsAvailable;
}
