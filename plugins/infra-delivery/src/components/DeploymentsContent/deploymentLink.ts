/** The query parameter of the Deployments tab that opens one deployment's drawer. */
export const DEPLOYMENT_PARAM = 'deployment';

/** The Deployments tab at `tabPath`, with the drawer of `deploymentId` open. */
export function deploymentLink(
  tabPath: string | undefined,
  deploymentId: string,
): string | undefined {
  return tabPath
    ? `${tabPath}?${new URLSearchParams({ [DEPLOYMENT_PARAM]: deploymentId })}`
    : undefined;
}
