import {
  defaultValueDefinitionSchema,
  errorBodySchema,
  ValueSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import request from 'supertest';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

const PATH = '/default-value-definitions';

/** Every field a ValueSchema may have, with nested options and conditions. */
const FULL_SCHEMA: ValueSchema = {
  id: 'instance_size',
  label: 'Instance size – Größe ✓',
  type: 'string',
  collapsible: true,
  default: 'm5.large',
  description: 'The EC2 instance type of the "app" tier',
  immutable: false,
  min_current_value: true,
  moved_from: ['legacy.instance_type', 'compute.size'],
  no_options_message: 'No sizes in this region',
  patterns: [
    { message: 'An m5 or c5 type', pattern: '^(m5|c5)\\.[a-z0-9]+$' },
    { message: 'Not a metal type', pattern: '^(?!.*metal).*$' },
  ],
  placeholder: 'Choose a size',
  required: true,
  show_when: {
    field: 'compute',
    equals: 'ec2',
    nested: { any: [1, 'two', null, true, { deep: [] }] },
  },
  values: [
    {
      value: 'm5.large',
      label: 'Large',
      description: '2 vCPU, 8 GiB',
      group_label: 'General purpose',
    },
    {
      value: 'm5.xlarge',
      label: 'Extra large',
      group_label: 'General purpose',
      show_when: { environment: ['prod', 'staging'] },
    },
    { value: 'c5.large', group_label: 'Compute optimized' },
    { value: '' },
  ],
};

function validationItems(response: request.Response): string[] {
  expect(response.status).toBe(400);
  const body = errorBodySchema.parse(response.body);
  expect(body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
  return body.details?.[0].items ?? [];
}

describe.each(databases.eachSupportedId())(
  'default value definition routes on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      api = await startInfraDeliveryBackend(await databases.init(databaseId));
    });

    async function createDefinition(
      owner: { token: string },
      givenId: string,
      schema: ValueSchema = { id: givenId, label: givenId, type: 'string' },
    ) {
      const response = await api.post(
        PATH,
        { data: { givenId, name: `Definition ${givenId}`, schema } },
        owner.token,
      );
      expect(response.status).toBe(201);
      return defaultValueDefinitionSchema.parse(response.body.data);
    }

    async function listAll(owner: TestOrganization) {
      const response = await api.get(PATH, owner.token);
      expect(response.status).toBe(200);
      return response.body;
    }

    it('round-trips a full ValueSchema through create, list and PATCH', async () => {
      const owner = await api.signup();

      const created = await api.post(
        PATH,
        {
          data: {
            givenId: 'instance-size',
            name: 'Instance size',
            description: 'Sizes offered to compute modules',
            schema: FULL_SCHEMA,
          },
        },
        owner.token,
      );
      expect(created.status).toBe(201);
      const definition = created.body.data;
      expect(definition).toEqual({
        id: expect.any(String),
        organizationId: owner.organizationId,
        givenId: 'instance-size',
        name: 'Instance size',
        description: 'Sizes offered to compute modules',
        schema: FULL_SCHEMA,
        createdByType: 'USER',
        createdAt: expect.any(String),
        updatedAt: definition.createdAt,
      });
      expect(defaultValueDefinitionSchema.parse(definition)).toEqual(
        definition,
      );

      expect(await listAll(owner)).toEqual({
        data: [definition],
        meta: { limit: 50, totalCount: 1 },
      });

      const renamed = await api.patch(
        `${PATH}/${definition.id}`,
        { data: { name: 'Instance sizes' } },
        owner.token,
      );
      expect(renamed.status).toBe(200);
      expect(renamed.body.data).toEqual({
        ...definition,
        name: 'Instance sizes',
        updatedAt: expect.any(String),
      });
      expect(renamed.body.data.schema).toEqual(FULL_SCHEMA);

      // A PATCHed schema replaces the old one whole; nothing of the old one is merged in.
      const replacement: ValueSchema = {
        id: 'instance_size',
        label: 'Instance size',
        type: 'string',
        moved_from: [],
        patterns: [{ message: 'Any graviton type', pattern: '^[a-z]+\\dg\\.' }],
        values: [
          {
            value: 'm7g.large',
            group_label: 'Graviton',
            show_when: { arch: 'arm64' },
          },
        ],
        required: false,
      };
      const reschemed = await api.patch(
        `${PATH}/${definition.id}`,
        { data: { schema: replacement, description: '' } },
        owner.token,
      );
      expect(reschemed.status).toBe(200);
      expect(reschemed.body.data).toEqual({
        ...renamed.body.data,
        description: '',
        schema: replacement,
        updatedAt: expect.any(String),
      });
      expect(
        new Date(reschemed.body.data.updatedAt).getTime(),
      ).toBeGreaterThanOrEqual(new Date(definition.createdAt).getTime());

      expect((await listAll(owner)).data).toEqual([reschemed.body.data]);
    });

    it('drops fields a ValueSchema does not know', async () => {
      const owner = await api.signup();
      const created = await api.post(
        PATH,
        {
          data: {
            givenId: 'region',
            name: 'Region',
            schema: { id: 'region', label: 'Region', type: 'string', x: 1 },
          },
        },
        owner.token,
      );
      expect(created.status).toBe(201);
      expect(created.body.data.schema).toEqual({
        id: 'region',
        label: 'Region',
        type: 'string',
      });
      expect(created.body.data).not.toHaveProperty('description');
      expect((await listAll(owner)).data).toEqual([created.body.data]);
    });

    it('refuses a pattern that does not compile (400 naming the pattern)', async () => {
      const owner = await api.signup();
      const schema = {
        ...FULL_SCHEMA,
        patterns: [
          { message: 'Fine', pattern: '^[a-z]+$' },
          { message: 'Broken', pattern: '([a-z' },
        ],
      };
      const response = await api.post(
        PATH,
        { data: { givenId: 'broken', name: 'Broken', schema } },
        owner.token,
      );
      expect(validationItems(response)).toEqual([
        'body.data.schema.patterns.1.pattern: is not a valid regular expression',
      ]);
      expect((await listAll(owner)).meta.totalCount).toBe(0);

      const definition = await createDefinition(owner, 'region');
      const patched = await api.patch(
        `${PATH}/${definition.id}`,
        {
          data: {
            schema: {
              ...definition.schema,
              patterns: [{ message: 'Broken', pattern: '([a-z' }],
            },
          },
        },
        owner.token,
      );
      expect(validationItems(patched)).toEqual([
        'body.data.schema.patterns.0.pattern: is not a valid regular expression',
      ]);
      expect((await listAll(owner)).data).toEqual([definition]);
    });

    it('refuses invalid definitions and empty PATCHes (400)', async () => {
      const owner = await api.signup();
      const schema = { id: 'region', label: 'Region', type: 'string' };

      const badGivenId = await api.post(
        PATH,
        { data: { givenId: 'Bad_ID', name: 'Region', schema } },
        owner.token,
      );
      expect(validationItems(badGivenId)).toEqual([
        expect.stringMatching(/^body\.data\.givenId: /),
      ]);

      const emptyName = await api.post(
        PATH,
        { data: { givenId: 'region', name: '', schema } },
        owner.token,
      );
      expect(validationItems(emptyName)).toEqual([
        expect.stringMatching(/^body\.data\.name: /),
      ]);

      const incompleteSchema = await api.post(
        PATH,
        {
          data: {
            givenId: 'region',
            name: 'Region',
            schema: { id: '', type: 'string', values: [{ label: 'x' }] },
          },
        },
        owner.token,
      );
      expect(validationItems(incompleteSchema)).toEqual([
        expect.stringMatching(/^body\.data\.schema\.id: /),
        expect.stringMatching(/^body\.data\.schema\.label: /),
        expect.stringMatching(/^body\.data\.schema\.values\.0\.value: /),
      ]);

      const noSchema = await api.post(
        PATH,
        { data: { givenId: 'region', name: 'Region' } },
        owner.token,
      );
      expect(validationItems(noSchema)).toEqual([
        expect.stringMatching(/^body\.data\.schema: /),
      ]);

      const definition = await createDefinition(owner, 'region');
      const emptyPatch = await api.patch(
        `${PATH}/${definition.id}`,
        { data: {} },
        owner.token,
      );
      expect(validationItems(emptyPatch)).toEqual([
        expect.stringContaining('name, schema or description is required'),
      ]);
      expect((await listAll(owner)).data).toEqual([definition]);
    });

    it('refuses a default its own schema does not allow, on create and PATCH (400 at schema.default)', async () => {
      const owner = await api.signup();
      const regions = {
        id: 'region',
        label: 'Region',
        type: 'string',
        values: [{ value: 'eu-west-1' }, { value: 'eu-central-1' }],
      };

      const unlisted = await api.post(
        PATH,
        {
          data: {
            givenId: 'region',
            name: 'Region',
            schema: { ...regions, default: 'us-east-1' },
          },
        },
        owner.token,
      );
      expect(validationItems(unlisted)).toEqual([
        'body.data.schema.default: "us-east-1" is not one of the allowed values ("eu-west-1", "eu-central-1")',
      ]);

      const definition = await createDefinition(owner, 'region', {
        ...regions,
        default: 'eu-west-1',
      });
      const mismatched = await api.patch(
        `${PATH}/${definition.id}`,
        {
          data: {
            schema: {
              id: 'cidr',
              label: 'CIDR block',
              type: 'string',
              default: '10.0.0.0',
              patterns: [
                { pattern: '/\\d+$', message: 'Ends with /16 to /28' },
              ],
            },
          },
        },
        owner.token,
      );
      expect(validationItems(mismatched)).toEqual([
        'body.data.schema.default: Ends with /16 to /28',
      ]);
      expect((await listAll(owner)).data).toEqual([definition]);
    });

    it('keeps givenIds unique within the organization only (409)', async () => {
      const owner = await api.signup();
      const other = await api.signup();
      const first = await createDefinition(owner, 'region');

      const duplicate = await api.post(
        PATH,
        {
          data: {
            givenId: 'region',
            name: 'Region again',
            schema: { id: 'other', label: 'Other', type: 'string' },
          },
        },
        owner.token,
      );
      expect(duplicate.status).toBe(409);
      const body = errorBodySchema.parse(duplicate.body);
      expect(body.code).toBe(
        'InfraDelivery:DefaultValueDefinition:GIVEN_ID_TAKEN',
      );
      expect(body.metadata).toEqual({ givenId: 'region' });

      const elsewhere = await createDefinition(other, 'region');
      expect(elsewhere.organizationId).toBe(other.organizationId);
      expect((await listAll(owner)).data).toEqual([first]);
      expect((await listAll(other)).data).toEqual([elsewhere]);
    });

    it("answers 404 for another organization's definition and leaves it alone", async () => {
      const owner = await api.signup();
      const intruder = await api.signup();
      const definition = await createDefinition(owner, 'secret-region', {
        id: 'secret_region',
        label: 'Secret region',
        type: 'string',
      });

      const patched = await api.patch(
        `${PATH}/${definition.id}`,
        { data: { name: 'Taken over' } },
        intruder.token,
      );
      expect(patched.status).toBe(404);
      expect(patched.body.code).toBe(
        'InfraDelivery:DefaultValueDefinition:NOT_FOUND',
      );
      const text = JSON.stringify(patched.body);
      for (const leaked of [
        owner.organizationId,
        'secret-region',
        'Secret region',
      ]) {
        expect(text).not.toContain(leaked);
      }

      const deleted = await api.delete(
        `${PATH}/${definition.id}`,
        intruder.token,
      );
      expect(deleted.status).toBe(404);
      expect(JSON.stringify(deleted.body)).not.toContain('secret-region');

      expect((await listAll(intruder)).data).toEqual([]);
      expect((await listAll(owner)).data).toEqual([definition]);
    });

    it('deletes a definition no module names (204), then answers 404 for it', async () => {
      const owner = await api.signup();
      const region = await createDefinition(owner, 'region');
      const zone = await createDefinition(owner, 'zone');

      const deleted = await api.delete(`${PATH}/${region.id}`, owner.token);
      expect(deleted.status).toBe(204);
      expect((await listAll(owner)).data).toEqual([zone]);

      const again = await api.delete(`${PATH}/${region.id}`, owner.token);
      expect(again.status).toBe(404);
      expect(errorBodySchema.parse(again.body).code).toBe(
        'InfraDelivery:DefaultValueDefinition:NOT_FOUND',
      );
      // Its givenId is free again.
      await createDefinition(owner, 'region');
    });

    it('lets a VIEWER list but not write (403), and a MEMBER write', async () => {
      const owner = await api.signup();
      const viewer = await api.member(owner, 'VIEWER');
      const member = await api.member(owner, 'MEMBER');
      const definition = await createDefinition(owner, 'region');

      const listed = await api.get(PATH, viewer.token);
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual([definition]);

      const created = await api.post(
        PATH,
        {
          data: {
            givenId: 'zone',
            name: 'Zone',
            schema: { id: 'zone', label: 'Zone', type: 'string' },
          },
        },
        viewer.token,
      );
      const patched = await api.patch(
        `${PATH}/${definition.id}`,
        { data: { name: 'Hijacked' } },
        viewer.token,
      );
      const deleted = await api.delete(
        `${PATH}/${definition.id}`,
        viewer.token,
      );
      for (const response of [created, patched, deleted]) {
        expect(response.status).toBe(403);
        expect(response.body.code).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');
        expect(response.body.metadata).toEqual({
          requiredRole: 'MEMBER',
          role: 'VIEWER',
        });
      }
      expect((await listAll(owner)).data).toEqual([definition]);

      const byMember = await createDefinition(member, 'zone');
      const renamed = await api.patch(
        `${PATH}/${definition.id}`,
        { data: { name: 'Region (member)' } },
        member.token,
      );
      expect(renamed.status).toBe(200);
      expect((await listAll(owner)).data).toEqual([
        byMember,
        renamed.body.data,
      ]);
    });

    it('records definitions a service account creates as SERVICE_ACCOUNT', async () => {
      const owner = await api.signup();
      const account = await api.post(
        '/service-accounts',
        { data: { name: 'ci', role: 'MEMBER' } },
        owner.token,
      );
      expect(account.status).toBe(201);
      const key = await api.post(
        '/api-keys',
        {
          data: {
            name: 'ci key',
            ownerType: 'SERVICE_ACCOUNT',
            ownerId: account.body.data.id,
          },
        },
        owner.token,
      );
      expect(key.status).toBe(201);
      const definition = await createDefinition(
        { token: key.body.data.key },
        'region',
      );
      expect(definition.createdByType).toBe('SERVICE_ACCOUNT');
      expect((await listAll(owner)).data).toEqual([definition]);
    });

    it('answers 401 without a credential', async () => {
      const owner = await api.signup();
      const definition = await createDefinition(owner, 'region');
      const responses = [
        await api.get(PATH),
        await api.post(PATH, {
          data: {
            givenId: 'zone',
            name: 'Zone',
            schema: { id: 'zone', label: 'Zone', type: 'string' },
          },
        }),
        await api.patch(`${PATH}/${definition.id}`, {
          data: { name: 'Anonymous' },
        }),
      ];
      for (const response of responses) {
        expect(response.status).toBe(401);
        expect(response.body.code).toBe(
          'InfraDelivery:Auth:MISSING_CREDENTIAL',
        );
        expect(JSON.stringify(response.body)).not.toContain('region');
      }
      expect((await listAll(owner)).data).toEqual([definition]);
    });

    it('pages through definitions newest first', async () => {
      const owner = await api.signup();
      const other = await api.signup();
      await createDefinition(other, 'not-mine');
      const created = [];
      for (let i = 1; i <= 5; i++) {
        created.push(await createDefinition(owner, `definition-${i}`));
      }
      const newestFirst = [...created].reverse();

      const first = await api.get(`${PATH}?limit=2`, owner.token);
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual(newestFirst.slice(0, 2));
      expect(first.body.meta).toEqual({
        limit: 2,
        nextCursor: expect.any(String),
        totalCount: 5,
      });

      const walked = await api.walk(PATH, owner.token, 2);
      expect(walked).toEqual(newestFirst);
      expect(new Set(walked.map(d => d.id)).size).toBe(5);

      const foreignCursor = await api.get(
        `${PATH}?limit=2&cursor=${encodeURIComponent(
          first.body.meta.nextCursor,
        )}`,
        other.token,
      );
      expect(foreignCursor.status).toBe(400);
      expect(foreignCursor.body.code).toBe(
        'InfraDelivery:Request:INVALID_CURSOR',
      );

      for (const limit of ['0', '501']) {
        expect(
          validationItems(await api.get(`${PATH}?limit=${limit}`, owner.token)),
        ).toEqual([expect.stringMatching(/^query\.limit: /)]);
      }
    });
  },
);
