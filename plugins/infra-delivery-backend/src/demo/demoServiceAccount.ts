import { Stores } from '../database/stores';

/** The service account the demo organization's seeded runs and releases are started by. */
export const DEMO_SERVICE_ACCOUNT_NAME = 'Demo data';

/**
 * The id of the "Demo data" service account, created on first use. The seeded runs name it as
 * who started them, so the portal reads "Triggered by Demo data" where it showed a bare
 * principal id. It has no API key: nothing signs in as it.
 */
export async function demoServiceAccountId(
  stores: Stores,
  organizationId: string,
): Promise<string> {
  return stores.transaction(async tx => {
    const accounts = await tx.serviceAccounts.list(organizationId, {
      limit: 500,
    });
    const existing = accounts.items.find(
      account => account.name === DEMO_SERVICE_ACCOUNT_NAME,
    );
    if (existing) return existing.id;
    const created = await tx.serviceAccounts.create({
      organizationId,
      name: DEMO_SERVICE_ACCOUNT_NAME,
      description:
        'Started the runs and releases the demo organization was seeded with (infraDelivery.demo.enabled); it has no API key',
      role: 'MEMBER',
      createdById: 'infra-delivery:demo-seed',
    });
    return created.id;
  });
}
