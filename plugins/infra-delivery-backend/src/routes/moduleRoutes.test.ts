import {
  errorBodySchema,
  moduleDefinitionSchema,
  moduleInstanceSchema,
  moduleVersionSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import knexFactory, { Knex } from 'knex';
import request from 'supertest';
import { commitSha, FakeGithub } from '../__testUtils__/fakeGithub';
import {
  createEnvironment,
  expectStatus,
} from '../__testUtils__/pipelineFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

const V1 = commitSha('v1');
const V2 = commitSha('v2');
const BROKEN = commitSha('broken');

const NETWORK_V1 = `
name: network
inputs:
  - id: cidr
    label: CIDR block
    type: string
    required: true
    immutable: true
    patterns:
      - pattern: '^\\d+\\.\\d+\\.\\d+\\.\\d+/\\d+$'
        message: must be a CIDR block such as 10.0.0.0/16
  - id: tier
    label: Tier
    type: string
    required: true
    default: small
    values:
      - value: small
      - value: large
  - id: region
    label: Region
    type: string
    required: true
    default_from: aws-region
  - id: owner_team
    label: Owning team
    type: string
`;

/** v2 renames `cidr` to `subnet_cidr` and drops `owner_team`. */
const NETWORK_V2 = `
inputs:
  - id: subnet_cidr
    label: Subnet CIDR block
    type: string
    required: true
    immutable: true
    moved_from: [cidr]
  - id: tier
    label: Tier
    type: string
    required: true
    default: small
    values: [{ value: small }, { value: large }, { value: xlarge }]
  - id: region
    label: Region
    type: string
    required: true
    default_from: aws-region
`;

const NOT_YAML = 'inputs:\n  - id: a\n   label: [unclosed\n';

const BAD_SHAPE = `
inputs:
  - id: size
    type: string
    requried: true
  - id: zone
    label: Zone
    type: string
    default_from: no-such-default
`;

const UNKNOWN_DEFAULT = `
inputs:
  - id: zone
    label: Zone
    type: string
    default_from: no-such-default
`;

function errorOf(response: request.Response, status: number) {
  expect(response.status).toBe(status);
  return errorBodySchema.parse(response.body);
}

describe.each(databases.eachSupportedId())(
  'module routes on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;
    let github: FakeGithub;
    let knex: Knex;
    let counter = 0;

    beforeAll(async () => {
      github = await FakeGithub.start();
      knex = await databases.init(databaseId);
      api = await startInfraDeliveryBackend(knex, { config: github.config() });
    });

    afterAll(async () => {
      await github.close();
    });

    /**
     * An organization with a code source whose repository holds the network module (v1 on
     * `main` and tag `v1.0.0`, v2 on tag `v2.0.0`, broken files on branch `broken`), and the
     * `aws-region` default-value definition.
     */
    async function organization(regionDefault: string | null = 'eu-west-1') {
      counter += 1;
      const name = `modules-${databaseId.toLowerCase()}-${counter}`;
      const installationId = String(9000 + counter);
      github.addRepository({
        owner: 'acme',
        name,
        id: 50_000 + counter,
        branches: { main: V1, broken: BROKEN },
        tags: { 'v1.0.0': V1, 'v2.0.0': V2 },
        commits: {
          [V1]: { 'network/module.yaml': NETWORK_V1 },
          [V2]: { 'network/module.yaml': NETWORK_V2 },
          [BROKEN]: {
            'network/module.yaml': NOT_YAML,
            'bad-shape/module.yaml': BAD_SHAPE,
            'unknown-default/module.yaml': UNKNOWN_DEFAULT,
          },
        },
      });
      github.install(installationId, 'all');
      const owner = await api.signup();
      const source = await api.post(
        '/code-sources',
        {
          data: {
            forgeInstallationId: installationId,
            repoUrl: github.repoUrl('acme', name),
            type: 'HOSTED_FORGE',
          },
        },
        owner.token,
      );
      expectStatus(source, 201);
      const region = await api.post(
        '/default-value-definitions',
        {
          data: {
            givenId: 'aws-region',
            name: 'AWS region',
            schema: {
              id: 'region',
              label: 'Region',
              type: 'string',
              ...(regionDefault !== null ? { default: regionDefault } : {}),
            },
          },
        },
        owner.token,
      );
      expectStatus(region, 201);
      return {
        owner,
        codeSourceId: source.body.data.id as string,
        regionDefinitionId: region.body.data.id as string,
        ...(await createEnvironment(api, owner)),
      };
    }

    async function defineModule(
      owner: TestOrganization,
      codeSourceId: string,
      path = 'network',
      givenId = 'network',
    ) {
      const response = await api.post(
        '/module-definitions',
        { data: { givenId, name: 'Network', codeSourceId, path } },
        owner.token,
      );
      expectStatus(response, 201);
      return response.body.data;
    }

    async function publish(
      owner: TestOrganization,
      definitionId: string,
      version: string,
      ref: string,
    ) {
      const response = await api.post(
        `/module-definitions/${definitionId}/versions`,
        { data: { version, ref } },
        owner.token,
      );
      expectStatus(response, 201);
      return response.body.data;
    }

    /** An organization with the network module published as 1.0.0 (and 2.0.0). */
    async function published(regionDefault: string | null = 'eu-west-1') {
      const org = await organization(regionDefault);
      const definition = await defineModule(org.owner, org.codeSourceId);
      const v1 = await publish(org.owner, definition.id, '1.0.0', 'v1.0.0');
      const v2 = await publish(org.owner, definition.id, '2.0.0', 'v2.0.0');
      return { ...org, definition, v1, v2 };
    }

    async function instantiate(
      org: { owner: TestOrganization; environmentId: string },
      moduleVersionId: string,
      values: Record<string, string>,
      name = 'core-network',
    ) {
      const response = await api.post(
        '/module-instances',
        {
          data: {
            moduleVersionId,
            environmentId: org.environmentId,
            name,
            values,
          },
        },
        org.owner.token,
      );
      expectStatus(response, 201);
      return response.body.data;
    }

    describe('module definitions', () => {
      it('creates, lists, gets, renames and deletes definitions', async () => {
        const org = await organization();
        const created = await api.post(
          '/module-definitions',
          {
            data: {
              givenId: 'network',
              name: 'Network',
              description: 'VPC and subnets',
              codeSourceId: org.codeSourceId,
              path: '/network/',
            },
          },
          org.owner.token,
        );
        expect(created.status).toBe(201);
        const definition = created.body.data;
        expect(definition).toEqual({
          id: expect.any(String),
          organizationId: org.owner.organizationId,
          givenId: 'network',
          name: 'Network',
          description: 'VPC and subnets',
          codeSourceId: org.codeSourceId,
          path: 'network',
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
        expect(moduleDefinitionSchema.parse(definition)).toEqual(definition);
        const root = await defineModule(
          org.owner,
          org.codeSourceId,
          '',
          'root',
        );

        const listed = await api.get(
          `/module-definitions?codeSourceId=${org.codeSourceId}`,
          org.owner.token,
        );
        expect(listed.body).toEqual({
          data: [root, definition],
          meta: { limit: 50, totalCount: 2 },
        });
        expect(
          (
            await api.get(
              `/module-definitions/${definition.id}`,
              org.owner.token,
            )
          ).body,
        ).toEqual({ data: definition });

        const renamed = await api.patch(
          `/module-definitions/${definition.id}`,
          { data: { name: 'Core network' } },
          org.owner.token,
        );
        expect(renamed.status).toBe(200);
        expect(renamed.body.data).toMatchObject({
          name: 'Core network',
          description: 'VPC and subnets',
        });

        expect(
          (await api.delete(`/module-definitions/${root.id}`, org.owner.token))
            .status,
        ).toBe(204);
        expect(
          (await api.get(`/module-definitions/${root.id}`, org.owner.token))
            .status,
        ).toBe(404);
      });

      it('refuses a taken givenId (409) and an unknown or foreign code source (404)', async () => {
        const org = await organization();
        const stranger = await organization();
        await defineModule(org.owner, org.codeSourceId);
        const taken = await api.post(
          '/module-definitions',
          {
            data: {
              givenId: 'network',
              name: 'Other',
              codeSourceId: org.codeSourceId,
              path: 'other',
            },
          },
          org.owner.token,
        );
        expect(errorOf(taken, 409).code).toBe(
          'InfraDelivery:ModuleDefinition:GIVEN_ID_TAKEN',
        );

        for (const codeSourceId of ['no-such-source', stranger.codeSourceId]) {
          const response = await api.post(
            '/module-definitions',
            {
              data: { givenId: 'x', name: 'X', codeSourceId, path: '' },
            },
            org.owner.token,
          );
          expect(errorOf(response, 404).code).toBe(
            'InfraDelivery:CodeSource:NOT_FOUND',
          );
        }

        const traversal = await api.post(
          '/module-definitions',
          {
            data: {
              givenId: 'y',
              name: 'Y',
              codeSourceId: org.codeSourceId,
              path: 'a/../../etc',
            },
          },
          org.owner.token,
        );
        expect(errorOf(traversal, 400).details?.[0].items).toEqual([
          expect.stringMatching(/^body\.data\.path: /),
        ]);
      });
    });

    describe('module versions', () => {
      it('reads the inputs of module.yaml at a tag, pinned to its commit', async () => {
        const org = await organization();
        const definition = await defineModule(org.owner, org.codeSourceId);
        const created = await api.post(
          `/module-definitions/${definition.id}/versions`,
          { data: { version: '1.0.0', ref: 'v1.0.0' } },
          org.owner.token,
        );
        expect(created.status).toBe(201);
        const version = created.body.data;
        expect(version).toEqual({
          id: expect.any(String),
          organizationId: org.owner.organizationId,
          moduleDefinitionId: definition.id,
          version: '1.0.0',
          ref: 'v1.0.0',
          commitSha: V1,
          inputs: [
            {
              id: 'cidr',
              label: 'CIDR block',
              type: 'string',
              required: true,
              immutable: true,
              patterns: [
                {
                  pattern: '^\\d+\\.\\d+\\.\\d+\\.\\d+/\\d+$',
                  message: 'must be a CIDR block such as 10.0.0.0/16',
                },
              ],
            },
            {
              id: 'tier',
              label: 'Tier',
              type: 'string',
              required: true,
              default: 'small',
              values: [{ value: 'small' }, { value: 'large' }],
            },
            {
              id: 'region',
              label: 'Region',
              type: 'string',
              required: true,
              default_from: 'aws-region',
            },
            { id: 'owner_team', label: 'Owning team', type: 'string' },
          ],
          createdAt: expect.any(String),
        });
        expect(moduleVersionSchema.parse(version)).toEqual(version);

        // The file was read through the URL reader at the commit, not the moving tag.
        const reads = github.requestsTo(/\/contents\/network\/module\.yaml$/);
        expect(reads[reads.length - 1]).toMatchObject({
          query: `?ref=${V1}`,
          accept: 'application/vnd.github.v3.raw',
        });

        const fromBranch = await publish(
          org.owner,
          definition.id,
          'v1.0.1-rc.1',
          'main',
        );
        expect(fromBranch.commitSha).toBe(V1);

        expect(
          (await api.get(`/module-versions/${version.id}`, org.owner.token))
            .body,
        ).toEqual({ data: version });
        const listed = await api.get(
          `/module-definitions/${definition.id}/versions`,
          org.owner.token,
        );
        expect(listed.body).toEqual({
          data: [fromBranch, version],
          meta: { limit: 50, totalCount: 2 },
        });

        const again = await api.post(
          `/module-definitions/${definition.id}/versions`,
          { data: { version: '1.0.0', ref: 'v2.0.0' } },
          org.owner.token,
        );
        expect(errorOf(again, 409).code).toBe(
          'InfraDelivery:ModuleVersion:VERSION_TAKEN',
        );
      });

      it('answers 422 listing the problems of an invalid module.yaml', async () => {
        const org = await organization();
        const syntax = await defineModule(
          org.owner,
          org.codeSourceId,
          'network',
        );
        const notYaml = await api.post(
          `/module-definitions/${syntax.id}/versions`,
          { data: { version: '0.1.0', ref: 'broken' } },
          org.owner.token,
        );
        const syntaxError = errorOf(notYaml, 422);
        expect(syntaxError.code).toBe(
          'InfraDelivery:ModuleVersion:INVALID_MODULE_YAML',
        );
        expect(syntaxError.details).toEqual([
          {
            title: 'network/module.yaml',
            render: 'list',
            items: expect.arrayContaining([
              expect.stringMatching(
                /^not valid YAML: .* at line 3, column \d+$/,
              ),
            ]),
          },
        ]);

        const shape = await defineModule(
          org.owner,
          org.codeSourceId,
          'bad-shape',
          'bad-shape',
        );
        const badShape = await api.post(
          `/module-definitions/${shape.id}/versions`,
          { data: { version: '0.1.0', ref: 'broken' } },
          org.owner.token,
        );
        expect(errorOf(badShape, 422).details?.[0].items).toEqual([
          'inputs[0].label: Invalid input: expected string, received undefined',
          'inputs[0]: Unrecognized key: "requried"',
        ]);

        const unknown = await defineModule(
          org.owner,
          org.codeSourceId,
          'unknown-default',
          'unknown-default',
        );
        const unknownDefault = await api.post(
          `/module-definitions/${unknown.id}/versions`,
          { data: { version: '0.1.0', ref: 'broken' } },
          org.owner.token,
        );
        expect(errorOf(unknownDefault, 422).details?.[0].items).toEqual([
          'inputs[0].default_from: no default-value definition "no-such-default" in the organization',
        ]);

        for (const id of [syntax.id, shape.id, unknown.id]) {
          const versions = await api.get(
            `/module-definitions/${id}/versions`,
            org.owner.token,
          );
          expect(versions.body.meta.totalCount).toBe(0);
        }
      });

      it('answers 422 for a missing module.yaml or an unknown ref', async () => {
        const org = await organization();
        const elsewhere = await defineModule(
          org.owner,
          org.codeSourceId,
          'modules/none',
          'none',
        );
        const missing = await api.post(
          `/module-definitions/${elsewhere.id}/versions`,
          { data: { version: '1.0.0', ref: 'main' } },
          org.owner.token,
        );
        const missingError = errorOf(missing, 422);
        expect(missingError.code).toBe(
          'InfraDelivery:ModuleVersion:MODULE_YAML_NOT_FOUND',
        );
        expect(missingError.details?.[0].items).toEqual([
          `modules/none/module.yaml does not exist at main (${V1})`,
        ]);

        const network = await defineModule(org.owner, org.codeSourceId);
        const unknownRef = await api.post(
          `/module-definitions/${network.id}/versions`,
          { data: { version: '1.0.0', ref: 'v9.9.9' } },
          org.owner.token,
        );
        expect(errorOf(unknownRef, 422).code).toBe(
          'InfraDelivery:ModuleVersion:REF_NOT_FOUND',
        );

        const notSemver = await api.post(
          `/module-definitions/${network.id}/versions`,
          { data: { version: 'latest', ref: 'main' } },
          org.owner.token,
        );
        expect(errorOf(notSemver, 400).details?.[0].items).toEqual([
          expect.stringMatching(/^body\.data\.version: /),
        ]);
      });
    });

    describe('default values that module versions name', () => {
      /**
       * A release of a version naming aws-region and a delete of aws-region at once, their
       * answers by status; exactly one of them wins cleanly: the version (201) with the
       * definition kept (409 IN_USE), or the delete (204) with the release refused (422).
       */
      async function expectOneWins(
        org: Awaited<ReturnType<typeof organization>>,
        definitionId: string,
        release: Promise<request.Response>,
        deletion: Promise<request.Response>,
      ) {
        const [released, deleted] = await Promise.all([release, deletion]);
        const versions = await api.get(
          `/module-definitions/${definitionId}/versions`,
          org.owner.token,
        );
        const definitions = await api.get(
          '/default-value-definitions',
          org.owner.token,
        );
        if (released.status === 201) {
          expect(errorOf(deleted, 409).code).toBe(
            'InfraDelivery:DefaultValueDefinition:IN_USE',
          );
          expect(versions.body.data).toHaveLength(1);
          expect(definitions.body.data).toHaveLength(1);
        } else {
          expect(deleted.status).toBe(204);
          expect(errorOf(released, 422).details?.[0].items).toEqual([
            'inputs[2].default_from: no default-value definition "aws-region" in the organization',
          ]);
          expect(versions.body.data).toEqual([]);
          expect(definitions.body.data).toEqual([]);
        }
        return released.status;
      }

      const releaseV1 = (owner: TestOrganization, definitionId: string) =>
        api.post(
          `/module-definitions/${definitionId}/versions`,
          { data: { version: '1.0.0', ref: 'v1.0.0' } },
          owner.token,
        );
      const deleteRegion = (org: Awaited<ReturnType<typeof organization>>) =>
        api.delete(
          `/default-value-definitions/${org.regionDefinitionId}`,
          org.owner.token,
        );

      // Seen failing without the fix on PostgreSQL (the release 201 and the delete 204: a version
      // naming a deleted definition); SQLite's transactions are serial.
      it('lets a release and a delete of the definition it names at the same moment not both win', async () => {
        for (let round = 0; round < 6; round++) {
          const org = await organization();
          const definition = await defineModule(org.owner, org.codeSourceId);
          expect([201, 422]).toContain(
            await expectOneWins(
              org,
              definition.id,
              releaseV1(org.owner, definition.id),
              deleteRegion(org),
            ),
          );
        }
      });

      if (databaseId.startsWith('POSTGRES')) {
        it('keeps a version released while a delete of its definition is under way from slipping past the delete’s in-use check', async () => {
          const org = await organization();
          const definition = await defineModule(org.owner, org.codeSourceId);
          // The interleaving that let both win, held open: a reader (on a connection of its
          // own, outside the backend's pool) holds the definition's row, so the delete started
          // next waits on it; the release runs meanwhile; then the reader lets go. Before, the
          // delete had looked for versions naming it already, found none, and deleted it after.
          const outside = knexFactory({
            client: knex.client.config.client,
            connection: knex.client.config.connection,
          });
          try {
            const reader = await outside.transaction();
            await reader('default_value_definitions')
              .where({ id: org.regionDefinitionId })
              .forShare()
              .first();
            // Sent now (a supertest request is sent once it is awaited or `then`ed).
            const deletion = deleteRegion(org).then(response => response);
            await new Promise(resolve => setTimeout(resolve, 500));
            const released = await releaseV1(org.owner, definition.id);
            await reader.commit();
            // The release comes first; the delete, let go, finds its version.
            expect(
              await expectOneWins(
                org,
                definition.id,
                Promise.resolve(released),
                deletion,
              ),
            ).toBe(201);
          } finally {
            await outside.destroy();
          }
        });
      }

      it('keeps a default-value definition that a version names (409 IN_USE naming them) until the module is deleted', async () => {
        const org = await published();
        // Its givenId is also an input's id: only `default_from` makes a definition used.
        const unnamed = await api.post(
          '/default-value-definitions',
          {
            data: {
              givenId: 'region',
              name: 'Region',
              schema: { id: 'region', label: 'Region', type: 'string' },
            },
          },
          org.owner.token,
        );
        expectStatus(unnamed, 201);
        expectStatus(
          await api.delete(
            `/default-value-definitions/${unnamed.body.data.id}`,
            org.owner.token,
          ),
          204,
        );

        const refused = errorOf(
          await api.delete(
            `/default-value-definitions/${org.regionDefinitionId}`,
            org.owner.token,
          ),
          409,
        );
        expect(refused.code).toBe(
          'InfraDelivery:DefaultValueDefinition:IN_USE',
        );
        expect(refused.message).toContain('aws-region');
        expect(refused.details?.[0].items).toEqual([
          'Network 1.0.0',
          'Network 2.0.0',
        ]);
        const listed = await api.get(
          '/default-value-definitions',
          org.owner.token,
        );
        expect(listed.body.data.map((d: { id: string }) => d.id)).toEqual([
          org.regionDefinitionId,
        ]);

        expectStatus(
          await api.delete(
            `/module-definitions/${org.definition.id}`,
            org.owner.token,
          ),
          204,
        );
        expectStatus(
          await api.delete(
            `/default-value-definitions/${org.regionDefinitionId}`,
            org.owner.token,
          ),
          204,
        );
      });
    });

    describe('module instances', () => {
      it('fills defaults from the input and from the default-value definition', async () => {
        const org = await published();
        const created = await api.post(
          '/module-instances',
          {
            data: {
              moduleVersionId: org.v1.id,
              environmentId: org.environmentId,
              name: 'core-network',
              values: { cidr: '10.0.0.0/16' },
            },
          },
          org.owner.token,
        );
        expect(created.status).toBe(201);
        const instance = created.body.data;
        expect(instance).toEqual({
          id: expect.any(String),
          organizationId: org.owner.organizationId,
          projectId: org.projectId,
          environmentId: org.environmentId,
          moduleDefinitionId: org.definition.id,
          moduleVersionId: org.v1.id,
          name: 'core-network',
          values: { cidr: '10.0.0.0/16', tier: 'small', region: 'eu-west-1' },
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
        expect(moduleInstanceSchema.parse(instance)).toEqual(instance);
        expect(
          (await api.get(`/module-instances/${instance.id}`, org.owner.token))
            .body,
        ).toEqual({ data: instance });
      });

      it('lists every problem of the values in the 400', async () => {
        const org = await published();
        const response = await api.post(
          '/module-instances',
          {
            data: {
              moduleVersionId: org.v1.id,
              environmentId: org.environmentId,
              name: 'core-network',
              values: { tier: 'medium', colour: 'blue' },
            },
          },
          org.owner.token,
        );
        const body = errorOf(response, 400);
        expect(body.code).toBe('InfraDelivery:ModuleInstance:INVALID_VALUES');
        expect(body.details).toEqual([
          {
            title: 'Invalid values',
            render: 'list',
            items: [
              'values.colour: is not an input of this module version',
              'values.cidr: is required',
              'values.tier: "medium" is not one of the allowed values ("small", "large")',
            ],
          },
        ]);

        const pattern = await api.post(
          '/module-instances',
          {
            data: {
              moduleVersionId: org.v1.id,
              environmentId: org.environmentId,
              name: 'core-network',
              values: { cidr: 'ten-slash-eight' },
            },
          },
          org.owner.token,
        );
        expect(errorOf(pattern, 400).details?.[0].items).toEqual([
          'values.cidr: must be a CIDR block such as 10.0.0.0/16',
        ]);
        expect(
          (await api.get('/module-instances', org.owner.token)).body.meta
            .totalCount,
        ).toBe(0);
      });

      it('needs a value when the default-value definition has no default', async () => {
        const org = await published(null);
        const response = await api.post(
          '/module-instances',
          {
            data: {
              moduleVersionId: org.v1.id,
              environmentId: org.environmentId,
              name: 'core-network',
              values: { cidr: '10.0.0.0/16' },
            },
          },
          org.owner.token,
        );
        expect(errorOf(response, 400).details?.[0].items).toEqual([
          'values.region: is required',
        ]);

        // The definition gains a default: it applies from then on.
        expectStatus(
          await api.patch(
            `/default-value-definitions/${org.regionDefinitionId}`,
            {
              data: {
                schema: {
                  id: 'region',
                  label: 'Region',
                  type: 'string',
                  default: 'ap-south-1',
                },
              },
            },
            org.owner.token,
          ),
          200,
        );
        const instance = await instantiate(org, org.v1.id, {
          cidr: '10.0.0.0/16',
        });
        expect(instance.values.region).toBe('ap-south-1');
      });

      it('merges changed values, keeps immutable ones and moves to another version', async () => {
        const org = await published();
        const instance = await instantiate(org, org.v1.id, {
          cidr: '10.0.0.0/16',
          owner_team: 'platform',
        });

        const immutable = await api.patch(
          `/module-instances/${instance.id}`,
          { data: { values: { cidr: '10.1.0.0/16', tier: 'large' } } },
          org.owner.token,
        );
        expect(errorOf(immutable, 400).details?.[0].items).toEqual([
          'values.cidr: is immutable and keeps "10.0.0.0/16"',
        ]);
        const removed = await api.patch(
          `/module-instances/${instance.id}`,
          { data: { values: { cidr: null } } },
          org.owner.token,
        );
        expect(errorOf(removed, 400).details?.[0].items).toEqual([
          'values.cidr: is required',
          'values.cidr: is immutable and keeps "10.0.0.0/16"',
        ]);

        const changed = await api.patch(
          `/module-instances/${instance.id}`,
          { data: { values: { tier: 'large', owner_team: null } } },
          org.owner.token,
        );
        expect(changed.status).toBe(200);
        expect(changed.body.data).toEqual({
          ...instance,
          values: { cidr: '10.0.0.0/16', tier: 'large', region: 'eu-west-1' },
          updatedAt: expect.any(String),
        });

        // 2.0.0 renamed cidr to subnet_cidr (still immutable) and dropped owner_team.
        const upgraded = await api.patch(
          `/module-instances/${instance.id}`,
          {
            data: {
              moduleVersionId: org.v2.id,
              name: 'main-network',
              values: { tier: 'xlarge' },
            },
          },
          org.owner.token,
        );
        expect(upgraded.status).toBe(200);
        expect(upgraded.body.data).toMatchObject({
          moduleVersionId: org.v2.id,
          moduleDefinitionId: org.definition.id,
          name: 'main-network',
          values: {
            subnet_cidr: '10.0.0.0/16',
            tier: 'xlarge',
            region: 'eu-west-1',
          },
        });
        const renamedImmutable = await api.patch(
          `/module-instances/${instance.id}`,
          { data: { values: { subnet_cidr: '10.9.0.0/16' } } },
          org.owner.token,
        );
        expect(errorOf(renamedImmutable, 400).details?.[0].items).toEqual([
          'values.subnet_cidr: is immutable and keeps "10.0.0.0/16"',
        ]);

        // Back to 1.0.0: xlarge is not a tier there.
        const downgrade = await api.patch(
          `/module-instances/${instance.id}`,
          { data: { moduleVersionId: org.v1.id } },
          org.owner.token,
        );
        expect(errorOf(downgrade, 400).details?.[0].items).toEqual([
          // Forgotten on the way, it would take any value back on 2.0.0.
          'values.subnet_cidr: is immutable and keeps "10.0.0.0/16"; version 1.0.0 has no input subnet_cidr to keep it in',
          'values.cidr: is required',
          'values.tier: "xlarge" is not one of the allowed values ("small", "large")',
        ]);
      });

      it('keeps an instance within its module and its name unique in the environment', async () => {
        const org = await published();
        const other = await defineModule(
          org.owner,
          org.codeSourceId,
          'network',
          'other-network',
        );
        const otherVersion = await publish(
          org.owner,
          other.id,
          '1.0.0',
          'main',
        );
        const instance = await instantiate(org, org.v1.id, {
          cidr: '10.0.0.0/16',
        });

        const otherModule = await api.patch(
          `/module-instances/${instance.id}`,
          { data: { moduleVersionId: otherVersion.id } },
          org.owner.token,
        );
        expect(errorOf(otherModule, 400).code).toBe(
          'InfraDelivery:ModuleInstance:OTHER_MODULE',
        );

        const sameName = await api.post(
          '/module-instances',
          {
            data: {
              moduleVersionId: org.v1.id,
              environmentId: org.environmentId,
              name: 'core-network',
              values: { cidr: '10.1.0.0/16' },
            },
          },
          org.owner.token,
        );
        expect(errorOf(sameName, 409).code).toBe(
          'InfraDelivery:ModuleInstance:NAME_TAKEN',
        );
        const second = await instantiate(
          org,
          org.v1.id,
          { cidr: '10.1.0.0/16' },
          'edge-network',
        );
        const rename = await api.patch(
          `/module-instances/${second.id}`,
          { data: { name: 'core-network' } },
          org.owner.token,
        );
        expect(errorOf(rename, 409).code).toBe(
          'InfraDelivery:ModuleInstance:NAME_TAKEN',
        );
      });

      it('answers 404 for an unknown or foreign environment or version', async () => {
        const org = await published();
        const stranger = await published();
        const cases = [
          [
            { moduleVersionId: org.v1.id, environmentId: 'nope' },
            'Environment',
          ],
          [
            {
              moduleVersionId: org.v1.id,
              environmentId: stranger.environmentId,
            },
            'Environment',
          ],
          [
            {
              moduleVersionId: stranger.v1.id,
              environmentId: org.environmentId,
            },
            'ModuleVersion',
          ],
        ] as const;
        for (const [place, entity] of cases) {
          const response = await api.post(
            '/module-instances',
            {
              data: { ...place, name: 'x', values: { cidr: '10.0.0.0/16' } },
            },
            org.owner.token,
          );
          expect(errorOf(response, 404).code).toBe(
            `InfraDelivery:${entity}:NOT_FOUND`,
          );
        }
      });

      it('lists instances by environment and module, page by page', async () => {
        const org = await published();
        const otherEnvironment = await createEnvironment(api, org.owner);
        const other = await defineModule(
          org.owner,
          org.codeSourceId,
          'network',
          'other-network',
        );
        const otherVersion = await publish(
          org.owner,
          other.id,
          '1.0.0',
          'main',
        );

        const ids: string[] = [];
        for (let i = 0; i < 3; i++) {
          ids.push(
            (
              await instantiate(
                org,
                org.v1.id,
                { cidr: '10.0.0.0/16' },
                `n${i}`,
              )
            ).id,
          );
        }
        const inOtherEnvironment = await instantiate(
          { owner: org.owner, environmentId: otherEnvironment.environmentId },
          org.v2.id,
          { subnet_cidr: '10.0.0.0/16' },
        );
        const ofOtherModule = await instantiate(
          org,
          otherVersion.id,
          { cidr: '10.0.0.0/16' },
          'other',
        );

        const ofIds = async (query: string) =>
          (await api.walk(`/module-instances${query}`, org.owner.token, 2)).map(
            i => i.id,
          );
        expect(await ofIds('')).toEqual([
          ofOtherModule.id,
          inOtherEnvironment.id,
          ...[...ids].reverse(),
        ]);
        expect(await ofIds(`?environmentId=${org.environmentId}`)).toEqual([
          ofOtherModule.id,
          ...[...ids].reverse(),
        ]);
        expect(await ofIds(`?moduleDefinitionId=${org.definition.id}`)).toEqual(
          [inOtherEnvironment.id, ...[...ids].reverse()],
        );
        expect(await ofIds(`?moduleVersionId=${org.v2.id}`)).toEqual([
          inOtherEnvironment.id,
        ]);
        expect(
          await ofIds(
            `?environmentId=${org.environmentId}&moduleDefinitionId=${org.definition.id}`,
          ),
        ).toEqual([...ids].reverse());

        const firstPage = await api.get(
          `/module-instances?limit=2&environmentId=${org.environmentId}`,
          org.owner.token,
        );
        expect(firstPage.body.meta).toEqual({
          limit: 2,
          nextCursor: expect.any(String),
          totalCount: 4,
        });
        const reused = await api.get(
          `/module-instances?limit=2&cursor=${encodeURIComponent(
            firstPage.body.meta.nextCursor,
          )}`,
          org.owner.token,
        );
        expect(errorOf(reused, 400).code).toBe(
          'InfraDelivery:Request:INVALID_CURSOR',
        );
      });

      it('deletes instances; a module with instances cannot be deleted', async () => {
        const org = await published();
        const instance = await instantiate(org, org.v1.id, {
          cidr: '10.0.0.0/16',
        });
        const refused = await api.delete(
          `/module-definitions/${org.definition.id}`,
          org.owner.token,
        );
        expect(errorOf(refused, 409).code).toBe(
          'InfraDelivery:ModuleDefinition:IN_USE',
        );

        expect(
          (
            await api.delete(
              `/module-instances/${instance.id}`,
              org.owner.token,
            )
          ).status,
        ).toBe(204);
        expect(
          (await api.get(`/module-instances/${instance.id}`, org.owner.token))
            .status,
        ).toBe(404);
        expect(
          (
            await api.delete(
              `/module-instances/${instance.id}`,
              org.owner.token,
            )
          ).status,
        ).toBe(404);

        expect(
          (
            await api.delete(
              `/module-definitions/${org.definition.id}`,
              org.owner.token,
            )
          ).status,
        ).toBe(204);
        expect(
          (await api.get(`/module-versions/${org.v1.id}`, org.owner.token))
            .status,
        ).toBe(404);
      });
    });

    describe('authorization', () => {
      it('lets VIEWERs read and refuses them writes (403)', async () => {
        const org = await published();
        const viewer = await api.member(org.owner, 'VIEWER');
        const instance = await instantiate(org, org.v1.id, {
          cidr: '10.0.0.0/16',
        });

        for (const path of [
          '/module-definitions',
          `/module-definitions/${org.definition.id}`,
          `/module-definitions/${org.definition.id}/versions`,
          `/module-versions/${org.v1.id}`,
          '/module-instances',
          `/module-instances/${instance.id}`,
        ]) {
          expect({
            path,
            status: (await api.get(path, viewer.token)).status,
          }).toEqual({ path, status: 200 });
        }
        for (const response of [
          await api.post(
            '/module-definitions',
            {
              data: {
                givenId: 'v',
                name: 'V',
                codeSourceId: org.codeSourceId,
                path: '',
              },
            },
            viewer.token,
          ),
          await api.patch(
            `/module-definitions/${org.definition.id}`,
            { data: { name: 'V' } },
            viewer.token,
          ),
          await api.delete(
            `/module-definitions/${org.definition.id}`,
            viewer.token,
          ),
          await api.post(
            `/module-definitions/${org.definition.id}/versions`,
            { data: { version: '3.0.0', ref: 'main' } },
            viewer.token,
          ),
          await api.post(
            '/module-instances',
            {
              data: {
                moduleVersionId: org.v1.id,
                environmentId: org.environmentId,
                name: 'v',
                values: { cidr: '10.0.0.0/16' },
              },
            },
            viewer.token,
          ),
          await api.patch(
            `/module-instances/${instance.id}`,
            { data: { values: { tier: 'large' } } },
            viewer.token,
          ),
          await api.delete(`/module-instances/${instance.id}`, viewer.token),
        ]) {
          expect(errorOf(response, 403).code).toBe(
            'InfraDelivery:Auth:INSUFFICIENT_ROLE',
          );
        }
      });

      it("answers 404 for another organization's modules and never lists them", async () => {
        const org = await published();
        const stranger = await published();
        const theirs = await instantiate(stranger, stranger.v1.id, {
          cidr: '10.0.0.0/16',
        });
        const cases: Array<[request.Test, string]> = [
          [
            api.get(
              `/module-definitions/${stranger.definition.id}`,
              org.owner.token,
            ),
            'ModuleDefinition',
          ],
          [
            api.patch(
              `/module-definitions/${stranger.definition.id}`,
              { data: { name: 'Mine' } },
              org.owner.token,
            ),
            'ModuleDefinition',
          ],
          [
            api.get(
              `/module-definitions/${stranger.definition.id}/versions`,
              org.owner.token,
            ),
            'ModuleDefinition',
          ],
          [
            api.post(
              `/module-definitions/${stranger.definition.id}/versions`,
              { data: { version: '9.0.0', ref: 'main' } },
              org.owner.token,
            ),
            'ModuleDefinition',
          ],
          [
            api.delete(
              `/module-definitions/${stranger.definition.id}`,
              org.owner.token,
            ),
            'ModuleDefinition',
          ],
          [
            api.get(`/module-versions/${stranger.v1.id}`, org.owner.token),
            'ModuleVersion',
          ],
          [
            api.get(`/module-instances/${theirs.id}`, org.owner.token),
            'ModuleInstance',
          ],
          [
            api.patch(
              `/module-instances/${theirs.id}`,
              { data: { values: { tier: 'large' } } },
              org.owner.token,
            ),
            'ModuleInstance',
          ],
          [
            api.delete(`/module-instances/${theirs.id}`, org.owner.token),
            'ModuleInstance',
          ],
        ];
        for (const [pending, entity] of cases) {
          expect(errorOf(await pending, 404).code).toBe(
            `InfraDelivery:${entity}:NOT_FOUND`,
          );
        }
        for (const path of [
          '/module-definitions',
          `/module-instances?moduleDefinitionId=${stranger.definition.id}`,
          `/module-instances?environmentId=${stranger.environmentId}`,
        ]) {
          expect(
            (await api.get(path, org.owner.token)).body.meta.totalCount,
          ).toBe(path === '/module-definitions' ? 1 : 0);
        }
        expect(
          (
            await api.get(
              `/module-instances/${theirs.id}`,
              stranger.owner.token,
            )
          ).body.data.values.tier,
        ).toBe('small');
      });

      it('answers 401 without a credential', async () => {
        const org = await published();
        for (const response of [
          await api.get('/module-definitions'),
          await api.post('/module-definitions', { data: {} }),
          await api.get(`/module-definitions/${org.definition.id}/versions`),
          await api.post(`/module-definitions/${org.definition.id}/versions`, {
            data: { version: '3.0.0', ref: 'main' },
          }),
          await api.get(`/module-versions/${org.v1.id}`),
          await api.get('/module-instances'),
          await api.post('/module-instances', { data: {} }),
        ]) {
          expect(errorOf(response, 401).code).toBe(
            'InfraDelivery:Auth:MISSING_CREDENTIAL',
          );
        }
      });
    });
  },
);
