import { RootConfigService } from '@backstage/backend-plugin-api';
import { portalPageUrl } from '@infra-delivery/plugin-infra-delivery-common';

/** Where the frontend plugin's Infrastructure page is mounted unless configured. */
const DEFAULT_PORTAL_PATH = '/infra-delivery';

/**
 * The Infrastructure page's address as browsers reach it, read as the backend plugin reads it:
 * `infraDelivery.portalUrl`, else `app.baseUrl` + `/infra-delivery`. Undefined without either.
 */
export function readPortalUrl(
  config: Pick<RootConfigService, 'getOptionalString'>,
): string | undefined {
  const baseUrl = config.getOptionalString('app.baseUrl');
  const url =
    config.getOptionalString('infraDelivery.portalUrl') ??
    (baseUrl
      ? `${baseUrl.replace(/\/+$/, '')}${DEFAULT_PORTAL_PATH}`
      : undefined);
  return url?.replace(/\/+$/, '');
}

/**
 * A portal page as the task log names it: its absolute address, which the log viewer makes a
 * link of, or, without a known portal address, its path under the Infrastructure page.
 */
export function pageForLog(
  portalUrl: string | undefined,
  page: string,
): string {
  return portalUrl
    ? portalPageUrl(portalUrl, page)
    : `${DEFAULT_PORTAL_PATH}${page}`;
}
