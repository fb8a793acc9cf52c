import { Organization } from '@infra-delivery/plugin-infra-delivery-common';
import { Stores } from './stores';

/**
 * The organization Backstage users are provisioned into, created on the first start. When
 * several instances start at once on an empty database each may create one; the oldest is
 * the one every instance then uses.
 */
export async function ensurePortalOrganization(
  stores: Stores,
  name: string,
): Promise<Organization> {
  const existing = await stores.organizations.findPortal();
  if (existing) {
    return existing;
  }
  await stores.organizations.create({ name, isPortal: true });
  return (await stores.organizations.findPortal())!;
}
