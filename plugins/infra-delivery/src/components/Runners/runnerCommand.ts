import {
  configApiRef,
  discoveryApiRef,
  useApi,
} from '@backstage/frontend-plugin-api';
import useAsync from 'react-use/esm/useAsync';

/** How a runner is started when `infraDelivery.runners.command` is not configured. */
export const DEFAULT_RUNNER_COMMAND = 'npx @infra-delivery/runner';

/** Stands in for the secret where the key is not known (it is shown only once). */
export const RUNNER_TOKEN_PLACEHOLDER = '<api key of a runner service account>';

/** The shell command that starts a runner polling this portal's service with `token`. */
export function runnerStartCommand(options: {
  command: string;
  serviceUrl: string;
  token: string;
}): string {
  return [
    `INFRA_DELIVERY_RUNNER_TOKEN=${options.token}`,
    options.command,
    `--url ${options.serviceUrl}`,
    '--iac-binary tofu',
    '--source-root <path to your infrastructure code>',
  ].join(' ');
}

/**
 * The command that starts a runner with `token`, using the configured runner command and the
 * service's URL as the portal reaches it (the same URL the plugin's client calls). Undefined
 * until the URL is known.
 */
export function useRunnerStartCommand(token: string): string | undefined {
  const configApi = useApi(configApiRef);
  const discoveryApi = useApi(discoveryApiRef);
  const command =
    configApi.getOptionalString('infraDelivery.runners.command') ??
    DEFAULT_RUNNER_COMMAND;
  const { value: serviceUrl } = useAsync(
    () => discoveryApi.getBaseUrl('infra-delivery'),
    [discoveryApi],
  );
  return serviceUrl === undefined
    ? undefined
    : runnerStartCommand({ command, serviceUrl, token });
}
