import {
  errorBodySchema,
  stackSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import {
  createEnvironment,
  createStack,
  expectStatus,
} from '../__testUtils__/pipelineFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

let accountCounter = 0;

describe.each(databases.eachSupportedId())(
  'the cloud account of a stack on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      api = await startInfraDeliveryBackend(await databases.init(databaseId));
    });

    async function createAccount(owner: { token: string }): Promise<string> {
      accountCounter += 1;
      const created = await api.post(
        '/cloud-accounts',
        {
          data: {
            name: `Account ${accountCounter}`,
            givenId: `account-${accountCounter}`,
            cloudId: String(100000000000 + accountCounter),
          },
        },
        owner.token,
      );
      expectStatus(created, 201);
      return created.body.data.id;
    }

    it('creates a stack in a cloud account of the organization', async () => {
      const owner = await api.signup();
      const place = await createEnvironment(api, owner);
      const cloudAccountId = await createAccount(owner);

      const created = await api.post(
        '/stacks',
        { data: { ...place, name: 'Network', cloudAccountId } },
        owner.token,
      );
      expect(created.status).toBe(201);
      expect(created.body.data.cloudAccountId).toBe(cloudAccountId);
      expect(stackSchema.parse(created.body.data)).toEqual(created.body.data);

      const fetched = await api.get(
        `/stacks/${created.body.data.id}`,
        owner.token,
      );
      expect(fetched.body.data.cloudAccountId).toBe(cloudAccountId);
      const listed = await api.get('/stacks', owner.token);
      expect(listed.body.data.map((s: any) => s.cloudAccountId)).toEqual([
        cloudAccountId,
      ]);
    });

    it('attaches, moves and detaches a stack with PATCH', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      expect(stack).not.toHaveProperty('cloudAccountId');
      const first = await createAccount(owner);
      const second = await createAccount(owner);

      const attached = await api.patch(
        `/stacks/${stack.id}`,
        { data: { cloudAccountId: first } },
        owner.token,
      );
      expect(attached.status).toBe(200);
      expect(attached.body.data).toEqual({
        ...stack,
        cloudAccountId: first,
        updatedAt: expect.any(String),
      });

      // Other changes leave the account alone.
      const renamed = await api.patch(
        `/stacks/${stack.id}`,
        { data: { name: 'Renamed' } },
        owner.token,
      );
      expect(renamed.body.data.cloudAccountId).toBe(first);

      const moved = await api.patch(
        `/stacks/${stack.id}`,
        { data: { cloudAccountId: second } },
        owner.token,
      );
      expect(moved.body.data.cloudAccountId).toBe(second);

      const detached = await api.patch(
        `/stacks/${stack.id}`,
        { data: { cloudAccountId: null } },
        owner.token,
      );
      expect(detached.status).toBe(200);
      expect(detached.body.data).not.toHaveProperty('cloudAccountId');
      expect(
        (await api.get(`/stacks/${stack.id}`, owner.token)).body.data,
      ).not.toHaveProperty('cloudAccountId');
    });

    it("answers 404 for another organization's cloud account, as for an unknown one", async () => {
      const owner = await api.signup();
      const place = await createEnvironment(api, owner);
      const stack = await createStack(api, owner, place);
      const stranger = await api.signup();
      const theirs = await createAccount(stranger);

      for (const cloudAccountId of [theirs, 'no-such-account']) {
        const created = await api.post(
          '/stacks',
          { data: { ...place, name: 'Elsewhere', cloudAccountId } },
          owner.token,
        );
        expect(created.status).toBe(404);
        const body = errorBodySchema.parse(created.body);
        expect(body.code).toBe('InfraDelivery:CloudAccount:NOT_FOUND');
        expect(body.message).toBe(
          `CloudAccount ${cloudAccountId} was not found`,
        );
        expect(body.requestId).toEqual(expect.any(String));

        const patched = await api.patch(
          `/stacks/${stack.id}`,
          { data: { cloudAccountId } },
          owner.token,
        );
        expect(patched.status).toBe(404);
        expect(patched.body.code).toBe('InfraDelivery:CloudAccount:NOT_FOUND');
      }

      const stacks = await api.get('/stacks', owner.token);
      expect(stacks.body.data).toEqual([stack]);
    });

    it('validates the cloud account id (400)', async () => {
      const owner = await api.signup();
      const place = await createEnvironment(api, owner);
      const stack = await createStack(api, owner, place);

      for (const cloudAccountId of [42, '', null]) {
        const created = await api.post(
          '/stacks',
          { data: { ...place, name: 'Network', cloudAccountId } },
          owner.token,
        );
        expect(created.status).toBe(400);
        const body = errorBodySchema.parse(created.body);
        expect(body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
        expect(body.details?.[0].items).toEqual([
          expect.stringMatching(/^body\.data\.cloudAccountId: /),
        ]);
      }
      for (const cloudAccountId of [42, '', 'x'.repeat(65)]) {
        const patched = await api.patch(
          `/stacks/${stack.id}`,
          { data: { cloudAccountId } },
          owner.token,
        );
        expect(patched.status).toBe(400);
        expect(patched.body.details?.[0].items).toEqual([
          expect.stringMatching(/^body\.data\.cloudAccountId: /),
        ]);
      }
    });

    it('detaches the stacks of a deleted cloud account and keeps them', async () => {
      const owner = await api.signup();
      const cloudAccountId = await createAccount(owner);
      const place = await createEnvironment(api, owner);
      const created = await api.post(
        '/stacks',
        { data: { ...place, name: 'Network', cloudAccountId } },
        owner.token,
      );
      expectStatus(created, 201);
      const stack = created.body.data;

      expectStatus(
        await api.delete(`/cloud-accounts/${cloudAccountId}`, owner.token),
        204,
      );

      const fetched = await api.get(`/stacks/${stack.id}`, owner.token);
      expect(fetched.status).toBe(200);
      expect(fetched.body.data).not.toHaveProperty('cloudAccountId');
      const change = await api.get(
        `/pipelines/${stack.changePipelineId}`,
        owner.token,
      );
      expect(change.status).toBe(200);
    });
  },
);
