import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

/**
 * Callers are remembered per backend instance (auth/CallerCache.ts). Two instances share one
 * database here, as replicas share PostgreSQL: a credential is used on both (so both remember
 * its caller), changed through one, and must be refused or re-resolved by both on the very
 * next request.
 */
describe.each(databases.eachSupportedId())(
  'remembered callers end with the change, on every instance, on %s',
  databaseId => {
    let first: InfraDeliveryTestClient;
    let second: InfraDeliveryTestClient;
    let instances: InfraDeliveryTestClient[];

    beforeAll(async () => {
      const knex = await databases.init(databaseId);
      first = await startInfraDeliveryBackend(knex);
      second = await startInfraDeliveryBackend(knex);
      instances = [first, second];
    });

    /** The statuses of `GET /projects` with `token` on each instance, in turn. */
    async function statusesOf(token: string): Promise<number[]> {
      const statuses: number[] = [];
      for (const instance of instances) {
        statuses.push((await instance.get('/projects', token)).status);
      }
      return statuses;
    }

    /** Uses `token` twice on each instance: the second use is answered from memory. */
    async function rememberEverywhere(token: string) {
      expect(await statusesOf(token)).toEqual([200, 200]);
      expect(await statusesOf(token)).toEqual([200, 200]);
    }

    async function createKey(
      token: string,
      data: Record<string, unknown>,
    ): Promise<{ id: string; key: string }> {
      const response = await first.post('/api-keys', { data }, token);
      expect(response.status).toBe(201);
      return response.body.data;
    }

    async function createServiceAccount(
      owner: TestOrganization,
    ): Promise<string> {
      const response = await first.post(
        '/service-accounts',
        { data: { name: 'runner', role: 'MEMBER' } },
        owner.token,
      );
      expect(response.status).toBe(201);
      return response.body.data.id;
    }

    let projects = 0;
    async function createProject(
      instance: InfraDeliveryTestClient,
      token: string,
    ) {
      return instance.post(
        '/projects',
        { data: { givenId: `project-${Date.now()}-${++projects}`, name: 'P' } },
        token,
      );
    }

    it('refuses a removed member’s access token and API key at once', async () => {
      const owner = await first.signup();
      const member = await first.member(owner, 'MEMBER');
      const memberKey = await createKey(member.token, { name: 'member key' });
      await rememberEverywhere(member.token);
      await rememberEverywhere(memberKey.key);

      const removed = await first.delete(
        `/memberships/${member.membershipId}`,
        owner.token,
      );
      expect(removed.status).toBe(204);

      expect(await statusesOf(member.token)).toEqual([401, 401]);
      expect(await statusesOf(memberKey.key)).toEqual([401, 401]);
      // The owner's own credential is resolved again and still works.
      expect(await statusesOf(owner.token)).toEqual([200, 200]);
    });

    it('acts with a member’s new role on the next request', async () => {
      const owner = await first.signup();
      const viewer = await first.member(owner, 'VIEWER');
      const viewerKey = await createKey(viewer.token, { name: 'viewer key' });
      const tokens = [viewer.token, viewerKey.key];
      const projectStatuses = async () => {
        const statuses: number[] = [];
        for (const instance of instances) {
          for (const token of tokens) {
            statuses.push((await createProject(instance, token)).status);
          }
        }
        return statuses;
      };
      for (const token of tokens) {
        await rememberEverywhere(token);
      }
      expect(await projectStatuses()).toEqual([403, 403, 403, 403]);

      const promoted = await second.patch(
        `/memberships/${viewer.membershipId}`,
        { data: { role: 'MEMBER' } },
        owner.token,
      );
      expect(promoted.status).toBe(200);
      expect(await projectStatuses()).toEqual([201, 201, 201, 201]);

      const demoted = await first.patch(
        `/memberships/${viewer.membershipId}`,
        { data: { role: 'VIEWER' } },
        owner.token,
      );
      expect(demoted.status).toBe(200);
      expect(await projectStatuses()).toEqual([403, 403, 403, 403]);
    });

    it('refuses a revoked API key at once, and keeps the others', async () => {
      const owner = await first.signup();
      const revokedKey = await createKey(owner.token, { name: 'revoked' });
      const keptKey = await createKey(owner.token, { name: 'kept' });
      await rememberEverywhere(revokedKey.key);
      await rememberEverywhere(keptKey.key);

      const revoked = await second.delete(
        `/api-keys/${revokedKey.id}`,
        owner.token,
      );
      expect(revoked.status).toBe(204);

      expect(await statusesOf(revokedKey.key)).toEqual([401, 401]);
      const refusal = await first.get('/projects', revokedKey.key);
      expect(refusal.body.code).toBe('InfraDelivery:Auth:INVALID_API_KEY');
      expect(await statusesOf(keptKey.key)).toEqual([200, 200]);
    });

    it('refuses the key of a deleted service account at once', async () => {
      const owner = await first.signup();
      const accountId = await createServiceAccount(owner);
      const accountKey = await createKey(owner.token, {
        name: 'runner key',
        ownerType: 'SERVICE_ACCOUNT',
        ownerId: accountId,
      });
      await rememberEverywhere(accountKey.key);

      const deleted = await second.delete(
        `/service-accounts/${accountId}`,
        owner.token,
      );
      expect(deleted.status).toBe(204);

      expect(await statusesOf(accountKey.key)).toEqual([401, 401]);
    });

    it('changes one member from two instances at once without a deadlock', async () => {
      const owner = await first.signup();
      for (let round = 0; round < 5; round++) {
        const member = await first.member(owner, 'MEMBER');
        await createKey(member.token, { name: 'member key' });
        const [removed, changed] = await Promise.all([
          first.delete(`/memberships/${member.membershipId}`, owner.token),
          second.patch(
            `/memberships/${member.membershipId}`,
            { data: { role: 'VIEWER' } },
            owner.token,
          ),
        ]);
        expect(removed.status).toBe(204);
        expect([200, 404]).toContain(changed.status);
        expect(await statusesOf(member.token)).toEqual([401, 401]);
      }
    });

    it('refuses an expired API key that was remembered', async () => {
      const owner = await first.signup();
      const expiresAt = new Date(Date.now() + 1500).toISOString();
      const key = await createKey(owner.token, { name: 'short', expiresAt });
      await rememberEverywhere(key.key);

      await new Promise(resolve =>
        setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 50),
      );
      const refusal = await second.get('/projects', key.key);
      expect(refusal.status).toBe(401);
      expect(refusal.body.code).toBe('InfraDelivery:Auth:API_KEY_EXPIRED');
      expect((await first.get('/projects', key.key)).status).toBe(401);
    });
    it('answers a deleted cloud account’s cached series on no instance', async () => {
      const owner = await first.signup();
      const created = await first.post(
        '/cloud-accounts',
        {
          data: {
            givenId: 'aws-metrics',
            name: 'AWS',
            cloudId: '123456789012',
          },
        },
        owner.token,
      );
      expect(created.status).toBe(201);
      const accountId = created.body.data.id;
      const metric = `/cloud/metrics/metric?${new URLSearchParams({
        cloudAccountId: accountId,
        region: 'eu-west-1',
        namespace: 'AWS/ECS',
        metricName: 'CPUUtilization',
        statistic: 'average',
        period: '3600',
        startTime: '2026-01-01T00:00:00.000Z',
        endTime: '2026-01-01T06:00:00.000Z',
      })}`;
      const metricStatuses = async () => {
        const statuses: number[] = [];
        for (const instance of instances) {
          statuses.push((await instance.get(metric, owner.token)).status);
        }
        return statuses;
      };
      expect(await metricStatuses()).toEqual([409, 409]);

      const connected = await first.post(
        `/cloud-accounts/${accountId}/connect-local`,
        {},
        owner.token,
      );
      expect(connected.status).toBe(200);
      // Both instances now keep the series and remember the account as connected.
      expect(await metricStatuses()).toEqual([200, 200]);
      expect(await metricStatuses()).toEqual([200, 200]);

      const deleted = await first.delete(
        `/cloud-accounts/${accountId}`,
        owner.token,
      );
      expect(deleted.status).toBe(204);
      const refusal = await second.get(metric, owner.token);
      expect(refusal.status).toBe(404);
      expect(refusal.body.code).toBe('InfraDelivery:CloudAccount:NOT_FOUND');
      expect((await first.get(metric, owner.token)).status).toBe(404);
    });
  },
);
