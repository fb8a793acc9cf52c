import { errorBodySchema } from '@infra-delivery/plugin-infra-delivery-common';
import request from 'supertest';
import { commitSha, FakeGithub } from '../__testUtils__/fakeGithub';
import {
  createEnvironment,
  createStack,
  expectStatus,
} from '../__testUtils__/pipelineFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';

jest.setTimeout(120_000);

const databases = createTestDatabases();

/** How many times each race is run: each round is one chance for the two calls to interleave. */
const ROUNDS = 12;

/** An answer as a test compares it: its status, and its error code when it is an error. */
function answerOf(response: request.Response): string {
  return response.status < 400
    ? String(response.status)
    : `${response.status} ${errorBodySchema.parse(response.body).code}`;
}

/** A cloud account connected to the local driver, for deployments. */
async function connectedCloudAccount(
  api: InfraDeliveryTestClient,
  owner: { token: string },
  n: number,
): Promise<string> {
  const account = await api.post(
    '/cloud-accounts',
    {
      data: {
        givenId: `aws-used-${n}`,
        name: 'AWS',
        cloudId: String(220_000_000_000 + n),
      },
    },
    owner.token,
  );
  expectStatus(account, 201);
  expectStatus(
    await api.post(
      `/cloud-accounts/${account.body.data.id}/connect-local`,
      {},
      owner.token,
    ),
    200,
  );
  return account.body.data.id;
}

/** A deployment's request body: a web service's release into `environmentId`. */
function deploymentIn(
  cloudAccountId: string,
  environmentId: string,
  moduleInstanceId?: string,
) {
  return {
    data: {
      cloudAccountId,
      region: 'eu-west-1',
      environmentId,
      moduleInstanceId,
      clusterRef: 'main',
      serviceRef: `web-${environmentId.slice(-8)}`,
      taskDefinition: {
        family: 'web',
        containerDefinitions: [
          { name: 'app', image: 'web:1', essential: true },
        ],
        cpu: '256',
        memory: '512',
      },
    },
  };
}

describe.each(databases.eachSupportedId())(
  'a deletion racing the creation of what it contains, on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      api = await startInfraDeliveryBackend(await databases.init(databaseId));
    });

    it('answers an environment created in a project being deleted with 404, or refuses the deletion', async () => {
      const owner = await api.signup();
      for (let round = 0; round < ROUNDS; round++) {
        const project = await api.post(
          '/projects',
          { data: { givenId: `project-${round}`, name: 'Project' } },
          owner.token,
        );
        expect(project.status).toBe(201);
        const projectId = project.body.data.id;
        const [deletion, creation] = await Promise.all([
          api.delete(`/projects/${projectId}`, owner.token),
          api.post(
            `/projects/${projectId}/environments`,
            { data: { givenId: `env-${round}`, name: 'Environment' } },
            owner.token,
          ),
        ]);

        const environments = await api.get(
          `/projects/${projectId}/environments`,
          owner.token,
        );
        const created = { creation: '201', environments: 1 };
        expect([
          {
            deletion: '204',
            creation: '404 InfraDelivery:Project:NOT_FOUND',
            environments: undefined,
          },
          {
            deletion: '409 InfraDelivery:Project:HAS_ENVIRONMENTS',
            ...created,
          },
          { deletion: '409 InfraDelivery:Project:IN_USE', ...created },
        ]).toContainEqual({
          deletion: answerOf(deletion),
          creation: answerOf(creation),
          environments: environments.body.data?.length,
        });
      }
    });

    it('answers a pipeline created in a project being deleted with 404, or refuses the deletion', async () => {
      const owner = await api.signup();
      for (let round = 0; round < ROUNDS; round++) {
        const project = await api.post(
          '/projects',
          { data: { givenId: `pipelines-${round}`, name: 'Project' } },
          owner.token,
        );
        expect(project.status).toBe(201);
        const projectId = project.body.data.id;
        const [deletion, creation] = await Promise.all([
          api.delete(`/projects/${projectId}`, owner.token),
          api.post(
            '/pipelines',
            {
              data: {
                projectId,
                givenId: `pipeline-${round}`,
                name: 'Pipeline',
                steps: [{ type: 'approval', name: 'Approve' }],
              },
            },
            owner.token,
          ),
        ]);

        const pipelines = await api.get(
          `/pipelines?projectId=${projectId}`,
          owner.token,
        );
        expect([
          {
            deletion: '204',
            creation: '404 InfraDelivery:Project:NOT_FOUND',
            pipelines: 0,
          },
          {
            deletion: '409 InfraDelivery:Project:IN_USE',
            creation: '201',
            pipelines: 1,
          },
        ]).toContainEqual({
          deletion: answerOf(deletion),
          creation: answerOf(creation),
          pipelines: pipelines.body.data?.length,
        });
      }
    });

    it('never keeps an API key of a service account or member deleted while it is created', async () => {
      const owner = await api.signup();
      const keysOf = async (ownerType: string, ownerId: string) =>
        (
          await api.get(
            `/api-keys?ownerType=${ownerType}&ownerId=${ownerId}`,
            owner.token,
          )
        ).body.data.length;
      for (let round = 0; round < ROUNDS; round++) {
        const account = await api.post(
          '/service-accounts',
          { data: { name: `account-${round}`, role: 'MEMBER' } },
          owner.token,
        );
        expect(account.status).toBe(201);
        const accountId = account.body.data.id;
        const [accountDeletion, accountKey] = await Promise.all([
          api.delete(`/service-accounts/${accountId}`, owner.token),
          api.post(
            '/api-keys',
            {
              data: {
                name: 'Runner',
                ownerType: 'SERVICE_ACCOUNT',
                ownerId: accountId,
              },
            },
            owner.token,
          ),
        ]);
        expect([
          {
            deletion: '204',
            creation: '404 InfraDelivery:ServiceAccount:NOT_FOUND',
            keys: 0,
          },
          // Created first, then deleted with its owner.
          { deletion: '204', creation: '201', keys: 0 },
        ]).toContainEqual({
          deletion: answerOf(accountDeletion),
          creation: answerOf(accountKey),
          keys: await keysOf('SERVICE_ACCOUNT', accountId),
        });

        const member = await api.member(owner, 'MEMBER');
        const [removal, ownKey] = await Promise.all([
          api.delete(`/memberships/${member.membershipId}`, owner.token),
          api.post('/api-keys', { data: { name: 'Mine' } }, member.token),
        ]);
        expect([
          {
            removal: '204',
            creation: '404 InfraDelivery:Membership:NOT_FOUND',
            keys: 0,
          },
          // The member was gone when their request was authenticated.
          {
            removal: '204',
            creation: '401 InfraDelivery:Auth:INVALID_TOKEN',
            keys: 0,
          },
          { removal: '204', creation: '201', keys: 0 },
        ]).toContainEqual({
          removal: answerOf(removal),
          creation: answerOf(ownKey),
          keys: await keysOf('MEMBERSHIP', member.membershipId),
        });
      }
    });

    it('answers a deployment made with a cloud account being deleted with 404, or refuses the deletion', async () => {
      const owner = await api.signup();
      for (let round = 0; round < ROUNDS; round++) {
        const account = await api.post(
          '/cloud-accounts',
          {
            data: {
              givenId: `aws-${round}`,
              name: 'AWS',
              cloudId: String(210_000_000_000 + round),
            },
          },
          owner.token,
        );
        expect(account.status).toBe(201);
        const cloudAccountId = account.body.data.id;
        expect(
          (
            await api.post(
              `/cloud-accounts/${cloudAccountId}/connect-local`,
              {},
              owner.token,
            )
          ).status,
        ).toBe(200);
        const place = await createEnvironment(api, owner);
        const [creation, deletion] = await Promise.all([
          api.post(
            '/deployments',
            {
              data: {
                cloudAccountId,
                region: 'eu-west-1',
                environmentId: place.environmentId,
                clusterRef: 'main',
                serviceRef: 'web',
                taskDefinition: {
                  family: 'web',
                  containerDefinitions: [
                    { name: 'app', image: 'web:1', essential: true },
                  ],
                  cpu: '256',
                  memory: '512',
                },
              },
            },
            owner.token,
          ),
          api.delete(`/cloud-accounts/${cloudAccountId}`, owner.token),
        ]);

        expect([
          {
            deletion: '204',
            creation: '404 InfraDelivery:CloudAccount:NOT_FOUND',
          },
          {
            deletion: '409 InfraDelivery:CloudAccount:IN_USE',
            creation: '201',
          },
        ]).toContainEqual({
          deletion: answerOf(deletion),
          creation: answerOf(creation),
        });
      }
    });

    it('answers a deployment made in an environment being deleted with 404, or refuses the deletion', async () => {
      const owner = await api.signup();
      const cloudAccountId = await connectedCloudAccount(api, owner, 0);
      for (let round = 0; round < ROUNDS; round++) {
        const place = await createEnvironment(api, owner);
        const [creation, deletion] = await Promise.all([
          api.post(
            '/deployments',
            deploymentIn(cloudAccountId, place.environmentId),
            owner.token,
          ),
          api.delete(
            `/projects/${place.projectId}/environments/${place.environmentId}`,
            owner.token,
          ),
        ]);

        expect([
          {
            deletion: '204',
            creation: '404 InfraDelivery:Environment:NOT_FOUND',
          },
          {
            deletion: '409 InfraDelivery:Environment:IN_USE',
            creation: '201',
          },
        ]).toContainEqual({
          deletion: answerOf(deletion),
          creation: answerOf(creation),
        });
      }
    });

    it('refuses to delete an environment that a deployment was made in, saying why', async () => {
      const owner = await api.signup();
      const cloudAccountId = await connectedCloudAccount(api, owner, 1);
      const place = await createEnvironment(api, owner);
      expectStatus(
        await api.post(
          '/deployments',
          deploymentIn(cloudAccountId, place.environmentId),
          owner.token,
        ),
        201,
      );

      const refused = await api.delete(
        `/projects/${place.projectId}/environments/${place.environmentId}`,
        owner.token,
      );
      expect(refused.status).toBe(409);
      expect(errorBodySchema.parse(refused.body)).toMatchObject({
        code: 'InfraDelivery:Environment:IN_USE',
        message: expect.stringMatching(
          /^1 deployment was made in this environment.*so it cannot be removed$/,
        ),
        metadata: { environmentId: place.environmentId, deployments: 1 },
      });
      // Still there, with its deployment.
      const deployments = await api.get(
        `/deployments?environmentId=${place.environmentId}`,
        owner.token,
      );
      expect(deployments.body.data).toHaveLength(1);
    });

    it('answers a stack created in an environment being deleted with 404, or refuses the deletion', async () => {
      const owner = await api.signup();
      for (let round = 0; round < ROUNDS; round++) {
        const place = await createEnvironment(api, owner);
        const [deletion, creation] = await Promise.all([
          api.delete(
            `/projects/${place.projectId}/environments/${place.environmentId}`,
            owner.token,
          ),
          api.post(
            '/stacks',
            { data: { ...place, name: 'Stack' } },
            owner.token,
          ),
        ]);

        const stack =
          creation.status === 201
            ? await api.get(`/stacks/${creation.body.data.id}`, owner.token)
            : undefined;
        expect([
          {
            deletion: '204',
            creation: '404 InfraDelivery:Environment:NOT_FOUND',
            stack: undefined,
          },
          {
            deletion: '409 InfraDelivery:Environment:IN_USE',
            creation: '201',
            stack: 200,
          },
        ]).toContainEqual({
          deletion: answerOf(deletion),
          creation: answerOf(creation),
          stack: stack?.status,
        });
      }
    });

    it('answers a run triggered on a stack being deleted with 404, or refuses the deletion while the run is open', async () => {
      const owner = await api.signup();
      for (let round = 0; round < ROUNDS; round++) {
        const stack = await createStack(api, owner);
        const [deletion, triggered] = await Promise.all([
          api.delete(`/stacks/${stack.id}`, owner.token),
          api.post(
            `/pipelines/${stack.changePipelineId}/runs`,
            { data: {} },
            owner.token,
          ),
        ]);

        const run =
          triggered.status === 201
            ? await api.get(
                `/pipeline-runs/${triggered.body.data.id}`,
                owner.token,
              )
            : undefined;
        expect([
          {
            deletion: '204',
            trigger: '404 InfraDelivery:Pipeline:NOT_FOUND',
            run: undefined,
          },
          // The pipeline was read before the deletion, its stack after it.
          {
            deletion: '204',
            trigger: '404 InfraDelivery:Stack:NOT_FOUND',
            run: undefined,
          },
          {
            deletion: '409 InfraDelivery:Stack:BUSY',
            trigger: '201',
            run: 'RUNNING',
          },
        ]).toContainEqual({
          deletion: answerOf(deletion),
          trigger: answerOf(triggered),
          run: run?.body.data?.status,
        });
      }
    });
  },
);

/** A module with one input, at tag v1 of the fake repository. */
const MODULE_V1 = commitSha('module-v1');
const MODULE_YAML = `
inputs:
  - id: tier
    label: Tier
    type: string
    default: small
`;

describe.each(databases.eachSupportedId())(
  'a deletion racing the creation of a module version or instance, on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;
    let github: FakeGithub;
    let repositories = 0;

    beforeAll(async () => {
      github = await FakeGithub.start();
      api = await startInfraDeliveryBackend(await databases.init(databaseId), {
        config: github.config(),
      });
    });

    afterAll(async () => {
      await github.close();
    });

    /** An organization with a code source whose repository holds the module at tag v1. */
    async function organization() {
      repositories += 1;
      const name = `races-${databaseId.toLowerCase()}-${repositories}`;
      const installationId = String(6000 + repositories);
      github.addRepository({
        owner: 'acme',
        name,
        id: 60_000 + repositories,
        branches: { main: MODULE_V1 },
        tags: { v1: MODULE_V1 },
        commits: { [MODULE_V1]: { 'module/module.yaml': MODULE_YAML } },
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
      return { owner, codeSourceId: source.body.data.id as string };
    }

    async function defineModule(
      org: { owner: TestOrganization; codeSourceId: string },
      givenId: string,
    ): Promise<string> {
      const response = await api.post(
        '/module-definitions',
        {
          data: {
            givenId,
            name: 'Module',
            codeSourceId: org.codeSourceId,
            path: 'module',
          },
        },
        org.owner.token,
      );
      expectStatus(response, 201);
      return response.body.data.id;
    }

    function publish(owner: TestOrganization, definitionId: string) {
      return api.post(
        `/module-definitions/${definitionId}/versions`,
        { data: { version: '1.0.0', ref: 'v1' } },
        owner.token,
      );
    }

    function instantiate(
      owner: TestOrganization,
      moduleVersionId: string,
      place: { name: string; environmentId: string },
    ) {
      return api.post(
        '/module-instances',
        { data: { moduleVersionId, ...place } },
        owner.token,
      );
    }

    async function instancesIn(owner: TestOrganization, environmentId: string) {
      const response = await api.get(
        `/module-instances?environmentId=${environmentId}`,
        owner.token,
      );
      return response.body.data.length;
    }

    it('answers a module definition created of a code source being deleted with 404, or refuses the deletion', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const org = await organization();
        const [creation, deletion] = await Promise.all([
          api.post(
            '/module-definitions',
            {
              data: {
                givenId: 'module',
                name: 'Module',
                codeSourceId: org.codeSourceId,
                path: 'module',
              },
            },
            org.owner.token,
          ),
          api.delete(`/code-sources/${org.codeSourceId}`, org.owner.token),
        ]);

        expect([
          {
            deletion: '204',
            creation: '404 InfraDelivery:CodeSource:NOT_FOUND',
          },
          { deletion: '409 InfraDelivery:CodeSource:IN_USE', creation: '201' },
        ]).toContainEqual({
          deletion: answerOf(deletion),
          creation: answerOf(creation),
        });
      }
    });

    it('answers a version published of a module definition being deleted with 404, or deletes it with the definition', async () => {
      const org = await organization();
      for (let round = 0; round < ROUNDS; round++) {
        const definitionId = await defineModule(org, `module-${round}`);
        const [deletion, creation] = await Promise.all([
          api.delete(`/module-definitions/${definitionId}`, org.owner.token),
          publish(org.owner, definitionId),
        ]);

        const version =
          creation.status === 201
            ? await api.get(
                `/module-versions/${creation.body.data.id}`,
                org.owner.token,
              )
            : undefined;
        expect([
          {
            deletion: '204',
            creation: '404 InfraDelivery:ModuleDefinition:NOT_FOUND',
            version: undefined,
          },
          // Published first, then deleted with its definition, as in that order one by one.
          { deletion: '204', creation: '201', version: 404 },
        ]).toContainEqual({
          deletion: answerOf(deletion),
          creation: answerOf(creation),
          version: version?.status,
        });
      }
    });

    it('answers a module instance created in an environment, or of a module, being deleted with 404, or refuses the deletion', async () => {
      const org = await organization();
      for (let round = 0; round < ROUNDS; round++) {
        const definitionId = await defineModule(org, `instantiated-${round}`);
        const version = await publish(org.owner, definitionId);
        expectStatus(version, 201);
        const place = await createEnvironment(api, org.owner);
        const [environmentDeletion, inEnvironment] = await Promise.all([
          api.delete(
            `/projects/${place.projectId}/environments/${place.environmentId}`,
            org.owner.token,
          ),
          instantiate(org.owner, version.body.data.id, {
            name: `first-${round}`,
            environmentId: place.environmentId,
          }),
        ]);
        expect([
          {
            deletion: '204',
            creation: '404 InfraDelivery:Environment:NOT_FOUND',
            instances: 0,
          },
          {
            deletion: '409 InfraDelivery:Environment:IN_USE',
            creation: '201',
            instances: 1,
          },
        ]).toContainEqual({
          deletion: answerOf(environmentDeletion),
          creation: answerOf(inEnvironment),
          instances: await instancesIn(org.owner, place.environmentId),
        });

        const elsewhere = await createEnvironment(api, org.owner);
        const [moduleDeletion, ofModule] = await Promise.all([
          api.delete(`/module-definitions/${definitionId}`, org.owner.token),
          instantiate(org.owner, version.body.data.id, {
            name: `second-${round}`,
            environmentId: elsewhere.environmentId,
          }),
        ]);
        const created =
          ofModule.status === 201
            ? await api.get(
                `/module-instances/${ofModule.body.data.id}`,
                org.owner.token,
              )
            : undefined;
        expect([
          {
            deletion: '204',
            creation: '404 InfraDelivery:ModuleVersion:NOT_FOUND',
            instance: undefined,
          },
          {
            deletion: '409 InfraDelivery:ModuleDefinition:IN_USE',
            creation: '201',
            instance: 200,
          },
        ]).toContainEqual({
          deletion: answerOf(moduleDeletion),
          creation: answerOf(ofModule),
          instance: created?.status,
        });
      }
    });

    it('refuses to delete a module instance that a deployment was made of, saying why', async () => {
      const org = await organization();
      const definitionId = await defineModule(org, 'deployed');
      const version = await publish(org.owner, definitionId);
      expectStatus(version, 201);
      const place = await createEnvironment(api, org.owner);
      const instance = await instantiate(org.owner, version.body.data.id, {
        name: 'deployed',
        environmentId: place.environmentId,
      });
      expectStatus(instance, 201);
      const cloudAccountId = await connectedCloudAccount(
        api,
        org.owner,
        100 + repositories,
      );
      expectStatus(
        await api.post(
          '/deployments',
          deploymentIn(
            cloudAccountId,
            place.environmentId,
            instance.body.data.id,
          ),
          org.owner.token,
        ),
        201,
      );

      const refused = await api.delete(
        `/module-instances/${instance.body.data.id}`,
        org.owner.token,
      );
      expect(refused.status).toBe(409);
      expect(errorBodySchema.parse(refused.body)).toMatchObject({
        code: 'InfraDelivery:ModuleInstance:IN_USE',
        message: expect.stringMatching(
          /^1 deployment was made of this module instance/,
        ),
        metadata: { moduleInstanceId: instance.body.data.id },
      });
      expect(await instancesIn(org.owner, place.environmentId)).toBe(1);
    });
  },
);
