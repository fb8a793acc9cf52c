import { Stores } from '../database/stores';

/**
 * The service accounts the demo organization's seeded history names, created on first use.
 * Neither has an API key: nothing signs in as them.
 */
const DEMO_ACCOUNTS = {
  /**
   * Who started the seeded runs and releases, so the portal reads "started by Demo data" where
   * it showed a bare principal id.
   */
  starter: {
    name: 'Demo data',
    description:
      'Started the runs and releases the demo organization was seeded with (infraDelivery.demo.enabled); it has no API key',
  },
  /** The runner that ran the seeded runs' steps, so they read "Plan on Demo runner". */
  runner: {
    name: 'Demo runner',
    description:
      "Ran the steps of the demo organization's seeded runs, as a runner signed in with it would; no runner process uses it, and it has no API key",
  },
} as const;

/** The id of one of the demo's service accounts (`starter` unless named), created on first use. */
export async function demoServiceAccountId(
  stores: Stores,
  organizationId: string,
  account: keyof typeof DEMO_ACCOUNTS = 'starter',
): Promise<string> {
  const { name, description } = DEMO_ACCOUNTS[account];
  return stores.transaction(async tx => {
    const accounts = await tx.serviceAccounts.list(organizationId, {
      limit: 500,
    });
    const existing = accounts.items.find(item => item.name === name);
    if (existing) return existing.id;
    const created = await tx.serviceAccounts.create({
      organizationId,
      name,
      description,
      role: 'MEMBER',
      createdById: 'infra-delivery:demo-seed',
    });
    return created.id;
  });
}
