import {
  configApiRef,
  discoveryApiRef,
  useApi,
} from '@backstage/frontend-plugin-api';
import { runnerLabelsArgument } from '@infra-delivery/plugin-infra-delivery-common';
import useAsync from 'react-use/esm/useAsync';

/** How a runner is started when `infraDelivery.runners.command` is not configured. */
export const DEFAULT_RUNNER_COMMAND = 'npx @infra-delivery/runner';

/**
 * Stands in for the secret where the key is not known (it is shown only once); quoted, so that
 * the command pasted as it is runs, and the runner says that the key is not valid.
 */
export const RUNNER_TOKEN_PLACEHOLDER =
  "'<api key of a runner service account>'";

/** The IaC tools a runner may plan and apply with: its `--iac-binary`. */
export type IacBinary = 'tofu' | 'terraform';

/**
 * The shell command that starts a runner of this portal's service with `token`, to paste as it
 * is in the directory that holds the infrastructure code (the runner's default source root).
 */
export function runnerStartCommand(options: {
  command: string;
  serviceUrl: string;
  token: string;
  iacBinary: IacBinary;
  /** The labels it is to carry: those a waiting stack requires. */
  labels?: string[];
}): string {
  return [
    `INFRA_DELIVERY_RUNNER_TOKEN=${options.token}`,
    options.command,
    `--url ${options.serviceUrl}`,
    `--iac-binary ${options.iacBinary}`,
    ...(options.labels?.length ? [runnerLabelsArgument(options.labels)] : []),
  ].join(' ');
}

/**
 * The command that starts a runner with `token`, using the configured runner command and the
 * service's URL as the portal reaches it (the same URL the plugin's client calls). Undefined
 * until the URL is known.
 */
export function useRunnerStartCommand(
  token: string,
  iacBinary: IacBinary,
  labels?: string[],
): string | undefined {
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
    : runnerStartCommand({ command, serviceUrl, token, iacBinary, labels });
}
