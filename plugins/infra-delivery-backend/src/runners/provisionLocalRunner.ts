import fs from 'node:fs/promises';
import path from 'node:path';
import { LoggerService } from '@backstage/backend-plugin-api';
import { generateApiKey, hashApiKey, parseApiKey } from '../auth/apiKeyFormat';
import { Stores } from '../database/stores';

export const LOCAL_RUNNER_ACCOUNT_NAME = 'Local runner';
const LOCAL_RUNNER_CREATOR = 'infra-delivery:local-runner';

/** Whether `key` is a live API key of a service account of the organization. */
async function isUsableKey(
  stores: Stores,
  organizationId: string,
  key: string,
): Promise<boolean> {
  const parsed = parseApiKey(key);
  if (!parsed) {
    return false;
  }
  const record = await stores.apiKeys.findByLookupId(parsed.lookupId);
  if (
    !record ||
    record.secretHash !== hashApiKey(key) ||
    record.apiKey.organizationId !== organizationId ||
    record.apiKey.ownerType !== 'SERVICE_ACCOUNT' ||
    (record.apiKey.expiresAt && new Date(record.apiKey.expiresAt) <= new Date())
  ) {
    return false;
  }
  return Boolean(
    await stores.serviceAccounts.get(organizationId, record.apiKey.ownerId),
  );
}

async function readKey(file: string): Promise<string | undefined> {
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    return undefined;
  }
}

/**
 * Development only (`infraDelivery.runners.localRunner.tokenFile`): makes sure the portal
 * organization has a "Local runner" service account (MEMBER) and that `tokenFile` holds a live
 * API key of it, so that `scripts/start` can start the reference runner without anybody
 * copying a key. The key goes to the file alone (mode 0600), never to a log; a file whose key
 * still works is left as it is.
 */
export async function provisionLocalRunner(options: {
  stores: Stores;
  organizationId: string;
  tokenFile: string;
  logger: LoggerService;
}): Promise<void> {
  const { stores, organizationId, tokenFile, logger } = options;
  const existing = await readKey(tokenFile);
  if (existing && (await isUsableKey(stores, organizationId, existing))) {
    return;
  }
  const generated = generateApiKey();
  await stores.transaction(async tx => {
    const accounts = await tx.serviceAccounts.list(organizationId, {
      limit: 500,
    });
    const account =
      accounts.items.find(a => a.name === LOCAL_RUNNER_ACCOUNT_NAME) ??
      (await tx.serviceAccounts.create({
        organizationId,
        name: LOCAL_RUNNER_ACCOUNT_NAME,
        description:
          'The reference runner that scripts/start runs next to the local portal',
        role: 'MEMBER',
        createdById: LOCAL_RUNNER_CREATOR,
      }));
    await tx.apiKeys.create({
      organizationId,
      lookupId: generated.lookupId,
      secretHash: generated.secretHash,
      keySuffix: generated.keySuffix,
      name: `Local runner key`,
      ownerType: 'SERVICE_ACCOUNT',
      ownerId: account.id,
      createdById: LOCAL_RUNNER_CREATOR,
    });
  });
  await fs.mkdir(path.dirname(tokenFile), { recursive: true });
  const partial = `${tokenFile}.${process.pid}.tmp`;
  await fs.writeFile(partial, `${generated.key}\n`, { mode: 0o600 });
  await fs.rename(partial, tokenFile);
  logger.info(
    `The local runner's API key was written to ${tokenFile} (service account "${LOCAL_RUNNER_ACCOUNT_NAME}")`,
  );
}
