import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { mockServices } from '@backstage/backend-test-utils';
import { Knex } from 'knex';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { migratedStores } from '../__testUtils__/engineFixtures';
import { hashApiKey, parseApiKey } from '../auth/apiKeyFormat';
import { Stores } from '../database/stores';
import {
  LOCAL_RUNNER_ACCOUNT_NAME,
  provisionLocalRunner,
} from './provisionLocalRunner';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe('provisionLocalRunner', () => {
  let knex: Knex;
  let stores: Stores;
  let organizationId: string;
  let tokenFile: string;
  const logger = mockServices.logger.mock();

  beforeAll(async () => {
    knex = await databases.init('SQLITE_3');
    stores = await migratedStores(knex);
  });

  afterAll(async () => {
    await knex.destroy();
  });

  beforeEach(async () => {
    organizationId = (await stores.organizations.create({ name: 'portal' })).id;
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'local-runner-'));
    tokenFile = path.join(dir, 'nested', 'local-runner.token');
  });

  const provision = () =>
    provisionLocalRunner({ stores, organizationId, tokenFile, logger });

  async function keyOwner(key: string) {
    const record = await stores.apiKeys.findByLookupId(
      parseApiKey(key)!.lookupId,
    );
    expect(record?.secretHash).toBe(hashApiKey(key));
    return stores.serviceAccounts.get(organizationId, record!.apiKey.ownerId);
  }

  it('writes a live key of a MEMBER "Local runner" service account, readable by its owner alone', async () => {
    await provision();
    const key = (await fs.readFile(tokenFile, 'utf8')).trim();
    const account = await keyOwner(key);
    expect(account).toMatchObject({
      name: LOCAL_RUNNER_ACCOUNT_NAME,
      role: 'MEMBER',
    });
    expect((await fs.stat(tokenFile)).mode & 0o777).toBe(0o600);
    expect(JSON.stringify(logger.info.mock.calls)).not.toContain(key);
  });

  it('keeps a file whose key still works, and replaces one whose key was revoked', async () => {
    await provision();
    const key = await fs.readFile(tokenFile, 'utf8');
    await provision();
    expect(await fs.readFile(tokenFile, 'utf8')).toBe(key);

    const account = (await keyOwner(key.trim()))!;
    await stores.apiKeys.deleteForOwner(
      organizationId,
      'SERVICE_ACCOUNT',
      account.id,
    );
    await provision();
    const renewed = (await fs.readFile(tokenFile, 'utf8')).trim();
    expect(renewed).not.toBe(key.trim());
    expect((await keyOwner(renewed))?.id).toBe(account.id);
    const accounts = await stores.serviceAccounts.list(organizationId, {
      limit: 10,
    });
    expect(accounts.items).toHaveLength(1);
  });

  it('replaces a file that holds something else', async () => {
    await fs.mkdir(path.dirname(tokenFile), { recursive: true });
    await fs.writeFile(tokenFile, 'not a key\n');
    await provision();
    const key = (await fs.readFile(tokenFile, 'utf8')).trim();
    expect(await keyOwner(key)).toBeDefined();
  });
});
