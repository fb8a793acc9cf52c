import { LeasedStep } from '@infra-delivery/plugin-infra-delivery-common';
import { baseUrl, errorResponse } from './infraDeliveryTestKit';
import { http } from 'msw';

/**
 * A running run's plan step, held by worker-1 of the "Build hosts" account, which said it beats
 * every 5 s and was last heard from `secondsAgo` seconds ago: silent 15 s after that.
 */
export function leasedPlanHeard(secondsAgo: number): LeasedStep {
  const heard = Date.now() - secondsAgo * 1000;
  return {
    id: 'step-plan',
    name: 'Plan',
    lease: {
      runnerId: 'worker-1',
      runnerName: 'Build hosts',
      renewedAt: new Date(heard).toISOString(),
      lastHeardAt: new Date(heard).toISOString(),
      expiresAt: new Date(heard + 60_000).toISOString(),
      heartbeatIntervalMs: 5_000,
    },
  };
}

/** `path` answered as by a backend that is starting: 503. */
export const answeredStarting = (path: string) =>
  http.get(`${baseUrl}${path}`, () =>
    errorResponse(503, {
      code: 'InfraDelivery:Service:UNAVAILABLE',
      message: 'The service is starting',
      requestId: 'req-1',
    }),
  );

/**
 * Waits six and a half seconds: a runner heard from 10 s before the view's last answer would
 * by then be unheard for more than 16 s, silent unless judged as of that answer.
 */
export const pastSilenceOfRunnerHeard10sBefore = () =>
  new Promise(resolve => setTimeout(resolve, 6_500));
