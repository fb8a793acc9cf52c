/**
 * Pages of the frontend plugin that the service sends people to, relative to where its
 * Infrastructure page is mounted (`infraDelivery.portalUrl` on the backend). The frontend
 * routes and the backend's links are both built from these, so they cannot drift apart.
 */
export const portalPages = {
  /** Starts a member's login to a self-hosted forge server from the portal (#27). */
  gitForgeLogin: (gitSelfHostedServerId: string) =>
    `/gitforge/${encodeURIComponent(gitSelfHostedServerId)}/login`,
  /**
   * The self-hosted servers' OAuth callback: the page completes the login with the signed-in
   * member's own credential. Register `{portalUrl}/gitforge/callback` with the OAuth app.
   */
  gitForgeLoginCallback: '/gitforge/callback',
  /** One run, on the Infrastructure page's Runs tab. */
  run: (runId: string) => `/runs/${encodeURIComponent(runId)}`,
  /**
   * One stack, its details open over the Infrastructure page's Overview: there as soon as the
   * stack is, where the catalog knows its entity only after the catalog's next refresh.
   */
  stack: (stackId: string) =>
    `/overview?${new URLSearchParams({ stack: stackId })}`,
} as const;

/** A portal page's absolute address, given where the Infrastructure page is mounted. */
export function portalPageUrl(portalUrl: string, page: string): string {
  return `${portalUrl.replace(/\/+$/, '')}${page}`;
}
