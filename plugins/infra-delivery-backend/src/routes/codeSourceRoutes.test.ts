import {
  codeSourceSchema,
  errorBodySchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import request from 'supertest';
import { commitSha, FakeGithub } from '../__testUtils__/fakeGithub';
import { expectStatus } from '../__testUtils__/pipelineFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

const MAIN = commitSha('main');
const FEATURE = commitSha('feature');
const MODULE_YAML = 'inputs: []\n';

/** The ErrorBody of an answer, checked against the schema, with its status. */
function errorOf(response: request.Response, status: number) {
  expect(response.status).toBe(status);
  return errorBodySchema.parse(response.body);
}

describe.each(databases.eachSupportedId())(
  'code source routes on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;
    let github: FakeGithub;
    let counter = 0;

    beforeAll(async () => {
      github = await FakeGithub.start();
      api = await startInfraDeliveryBackend(await databases.init(databaseId), {
        config: github.config(),
      });
    });

    afterAll(async () => {
      await github.close();
    });

    afterEach(() => {
      github.outage = undefined;
    });

    /** A repository of its own on the fake forge, reached by an installation of its own. */
    function repository(
      options: {
        visibility?: 'public' | 'private' | 'internal';
        defaultBranch?: string;
      } = {},
    ) {
      counter += 1;
      const name = `repo-${databaseId.toLowerCase()}-${counter}`;
      const id = 10_000 + counter;
      const installationId = String(500 + counter);
      const defaultBranch = options.defaultBranch ?? 'main';
      github.addRepository({
        owner: 'acme',
        name,
        id,
        visibility: options.visibility,
        defaultBranch,
        branches: { [defaultBranch]: MAIN, 'feature/vpc': FEATURE },
        commits: {
          [MAIN]: {
            'module.yaml': MODULE_YAML,
            'modules/vpc/module.yaml': MODULE_YAML,
          },
          [FEATURE]: { 'modules/feature-only/module.yaml': MODULE_YAML },
        },
      });
      github.install(installationId, [`acme/${name}`]);
      return {
        name,
        id,
        installationId,
        repoUrl: github.repoUrl('acme', name),
      };
    }

    async function connect(
      owner: TestOrganization,
      repo = repository(),
    ): Promise<any> {
      const response = await api.post(
        '/code-sources',
        {
          data: {
            forgeInstallationId: repo.installationId,
            repoUrl: repo.repoUrl,
            type: 'HOSTED_FORGE',
          },
        },
        owner.token,
      );
      expectStatus(response, 201);
      return response.body.data;
    }

    describe('POST /code-sources (#6)', () => {
      it('resolves the repository through the installation', async () => {
        const owner = await api.signup();
        const repo = repository({
          visibility: 'public',
          defaultBranch: 'trunk',
        });

        const created = await api.post(
          '/code-sources',
          {
            data: {
              forgeInstallationId: repo.installationId,
              repoUrl: `${repo.repoUrl}.git`,
              type: 'HOSTED_FORGE',
            },
          },
          owner.token,
        );
        expect(created.status).toBe(201);
        const source = created.body.data;
        expect(source).toEqual({
          id: expect.any(String),
          organizationId: owner.organizationId,
          type: 'HOSTED_FORGE',
          auth: {
            kind: 'installation',
            forgeInstallationId: repo.installationId,
          },
          gitRepositoryId: String(repo.id),
          repoName: `acme/${repo.name}`,
          repoUrl: repo.repoUrl,
          defaultBranch: 'trunk',
          visibility: 'PUBLIC',
          accessLost: false,
          accessCheckedAt: expect.any(String),
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
        expect(codeSourceSchema.parse(source)).toEqual(source);

        const fetched = await api.get(
          `/code-sources/${source.id}`,
          owner.token,
        );
        expect(fetched.status).toBe(200);
        expect(fetched.body).toEqual({ data: source });
        const listed = await api.get('/code-sources', owner.token);
        expect(listed.body).toEqual({
          data: [source],
          meta: { limit: 50, totalCount: 1 },
        });

        const exchanges = github.requestsTo(
          new RegExp(
            `/app/installations/${repo.installationId}/access_tokens$`,
          ),
        );
        expect(exchanges).toEqual([
          expect.objectContaining({ method: 'POST', credential: 'jwt' }),
        ]);
        expect(
          github.requestsTo(new RegExp(`/repos/acme/${repo.name}$`)),
        ).toEqual([
          expect.objectContaining({
            credential: `installation:${repo.installationId}`,
          }),
        ]);
      });

      it.each([
        ['private', 'PRIVATE'],
        ['internal', 'INTERNAL'],
      ] as const)('maps %s visibility', async (visibility, expected) => {
        const owner = await api.signup();
        const source = await connect(owner, repository({ visibility }));
        expect(source.visibility).toBe(expected);
      });

      it('answers 422 for a repository that is missing or out of the installation’s reach', async () => {
        const owner = await api.signup();
        const repo = repository();
        const other = repository();

        for (const repoUrl of [
          github.repoUrl('acme', 'does-not-exist'),
          other.repoUrl,
        ]) {
          const response = await api.post(
            '/code-sources',
            {
              data: {
                forgeInstallationId: repo.installationId,
                repoUrl,
                type: 'HOSTED_FORGE',
              },
            },
            owner.token,
          );
          const body = errorOf(response, 422);
          expect(body.code).toBe(
            'InfraDelivery:CodeSource:REPOSITORY_NOT_FOUND',
          );
          expect(body.message).toBe(
            `${repoUrl} does not exist or installation ${repo.installationId} cannot reach it`,
          );
        }
        expect(
          (await api.get('/code-sources', owner.token)).body.meta.totalCount,
        ).toBe(0);
      });

      it('answers 422 for a removed, suspended or unknown installation', async () => {
        const owner = await api.signup();
        const removed = repository();
        github.uninstall(removed.installationId);
        const suspended = repository();
        github.suspend(suspended.installationId);
        const unknown = { ...repository(), installationId: '987654321' };

        const cases = [
          [removed, 'InfraDelivery:ForgeInstallation:NOT_FOUND'],
          [suspended, 'InfraDelivery:ForgeInstallation:SUSPENDED'],
          [unknown, 'InfraDelivery:ForgeInstallation:NOT_FOUND'],
        ] as const;
        for (const [repo, code] of cases) {
          const response = await api.post(
            '/code-sources',
            {
              data: {
                forgeInstallationId: repo.installationId,
                repoUrl: repo.repoUrl,
                type: 'HOSTED_FORGE',
              },
            },
            owner.token,
          );
          const body = errorOf(response, 422);
          expect(body.code).toBe(code);
          expect(body.metadata).toEqual({
            host: 'ghe.example.test',
            forgeInstallationId: repo.installationId,
          });
        }
        expect(
          (await api.get('/code-sources', owner.token)).body.meta.totalCount,
        ).toBe(0);
      });

      it('refuses hosts without a GitHub App and addresses that are not repositories', async () => {
        const owner = await api.signup();
        const noApp = await api.post(
          '/code-sources',
          {
            data: {
              forgeInstallationId: '1',
              repoUrl: 'https://github.com/acme/network',
              type: 'HOSTED_FORGE',
            },
          },
          owner.token,
        );
        expect(errorOf(noApp, 422).code).toBe(
          'InfraDelivery:ForgeIntegration:NOT_CONFIGURED',
        );

        const notARepository = await api.post(
          '/code-sources',
          {
            data: {
              forgeInstallationId: '1',
              repoUrl: 'https://ghe.example.test/acme',
              type: 'HOSTED_FORGE',
            },
          },
          owner.token,
        );
        expect(errorOf(notARepository, 400).code).toBe(
          'InfraDelivery:CodeSource:INVALID_REPO_URL',
        );

        const invalid = await api.post(
          '/code-sources',
          {
            data: {
              forgeInstallationId: 'abc',
              repoUrl: 'ftp://ghe.example.test/acme/x',
              type: 'GITLAB',
            },
          },
          owner.token,
        );
        const body = errorOf(invalid, 400);
        expect(body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
        expect(body.details?.[0].items).toEqual([
          expect.stringMatching(/^body\.data\.forgeInstallationId: /),
          expect.stringMatching(/^body\.data\.repoUrl: /),
          expect.stringMatching(/^body\.data\.type: /),
        ]);
      });

      it('refuses to connect a repository twice (409)', async () => {
        const owner = await api.signup();
        const repo = repository();
        await connect(owner, repo);
        const again = await api.post(
          '/code-sources',
          {
            data: {
              forgeInstallationId: repo.installationId,
              repoUrl: `${repo.repoUrl}/`,
              type: 'HOSTED_FORGE',
            },
          },
          owner.token,
        );
        expect(errorOf(again, 409).code).toBe(
          'InfraDelivery:CodeSource:ALREADY_CONNECTED',
        );
        // Another organization may connect it too.
        await connect(await api.signup(), repo);
      });
    });

    describe('POST /code-sources/{id}/verify', () => {
      it('sets accessLost when the installation no longer reaches the repository, and clears it when it does again', async () => {
        const owner = await api.signup();
        const repo = repository();
        const source = await connect(owner, repo);

        github.uninstall(repo.installationId);
        const lost = await api.post(
          `/code-sources/${source.id}/verify`,
          {},
          owner.token,
        );
        expect(lost.status).toBe(200);
        expect(lost.body.data).toEqual({
          ...source,
          accessLost: true,
          updatedAt: expect.any(String),
        });
        expect(
          (await api.get(`/code-sources/${source.id}`, owner.token)).body.data
            .accessLost,
        ).toBe(true);

        github.install(repo.installationId, [`acme/${repo.name}`]);
        const back = await api.post(
          `/code-sources/${source.id}/verify`,
          {},
          owner.token,
        );
        expect(back.body.data.accessLost).toBe(false);
        expect(back.body.data.accessCheckedAt > source.accessCheckedAt).toBe(
          true,
        );

        github.setRepositoryAccess(
          repo.installationId,
          `acme/${repo.name}`,
          false,
        );
        const deselected = await api.post(
          `/code-sources/${source.id}/verify`,
          {},
          owner.token,
        );
        expect(deselected.body.data.accessLost).toBe(true);
      });

      it('refreshes the default branch and visibility', async () => {
        const owner = await api.signup();
        const repo = repository({ visibility: 'private' });
        const source = await connect(owner, repo);
        github.addRepository({
          owner: 'acme',
          name: repo.name,
          id: repo.id,
          visibility: 'public',
          defaultBranch: 'develop',
        });
        const verified = await api.post(
          `/code-sources/${source.id}/verify`,
          {},
          owner.token,
        );
        expect(verified.body.data).toMatchObject({
          accessLost: false,
          defaultBranch: 'develop',
          visibility: 'PUBLIC',
        });
      });

      it('counts a repository created again under the same name as lost', async () => {
        const owner = await api.signup();
        const repo = repository();
        const source = await connect(owner, repo);
        github.addRepository({ owner: 'acme', name: repo.name, id: 999_999 });
        const verified = await api.post(
          `/code-sources/${source.id}/verify`,
          {},
          owner.token,
        );
        expect(verified.body.data.accessLost).toBe(true);
        expect(verified.body.data.gitRepositoryId).toBe(String(repo.id));
      });

      it('answers 503 and changes nothing when the forge is down', async () => {
        const owner = await api.signup();
        const source = await connect(owner);
        github.outage = { status: 502 };
        const response = await api.post(
          `/code-sources/${source.id}/verify`,
          {},
          owner.token,
        );
        expect(errorOf(response, 503).code).toBe(
          'InfraDelivery:Forge:UNAVAILABLE',
        );
        github.outage = undefined;
        expect(
          (await api.get(`/code-sources/${source.id}`, owner.token)).body.data,
        ).toEqual(source);
      });
    });

    describe('GET /code-source/{id}/module-yaml-exists (#26)', () => {
      it('reads module.yaml through the URL reader on the default or a given branch', async () => {
        const owner = await api.signup();
        const viewer = await api.member(owner, 'VIEWER');
        const repo = repository();
        const source = await connect(owner, repo);
        const check = (query: string) =>
          api.get(
            `/code-source/${source.id}/module-yaml-exists${query}`,
            viewer.token,
          );

        const cases: Array<[string, boolean]> = [
          ['', true],
          ['?basePath=modules/vpc', true],
          ['?basePath=/modules/vpc/', true],
          ['?basePath=modules/none', false],
          ['?branch=main&basePath=modules/feature-only', false],
          ['?branch=feature/vpc&basePath=modules/feature-only', true],
          ['?branch=feature%2Fvpc&basePath=modules/vpc', false],
        ];
        for (const [query, exists] of cases) {
          const response = await check(query);
          expect({
            query,
            status: response.status,
            body: response.body,
          }).toEqual({
            query,
            status: 200,
            body: { data: { exists } },
          });
        }

        const reads = github.requestsTo(
          new RegExp(`/repos/acme/${repo.name}/contents/`),
        );
        expect(reads.map(r => `${r.path}${r.query}`)).toContain(
          `/api/v3/repos/acme/${repo.name}/contents/modules/vpc/module.yaml?ref=${MAIN}`,
        );
        for (const read of reads) {
          expect(read).toMatchObject({
            credential: `installation:${repo.installationId}`,
            accept: 'application/vnd.github.v3.raw',
          });
        }
      });

      it('answers exists: false for a missing branch, and 422 for an unreachable repository', async () => {
        const owner = await api.signup();
        const repo = repository();
        const source = await connect(owner, repo);

        const noBranch = await api.get(
          `/code-source/${source.id}/module-yaml-exists?branch=nope`,
          owner.token,
        );
        expect({ status: noBranch.status, body: noBranch.body }).toEqual({
          status: 200,
          body: { data: { exists: false } },
        });

        github.removeRepository('acme', repo.name);
        const noRepository = await api.get(
          `/code-source/${source.id}/module-yaml-exists`,
          owner.token,
        );
        expect(errorOf(noRepository, 422).code).toBe(
          'InfraDelivery:CodeSource:REPOSITORY_NOT_FOUND',
        );

        github.uninstall(repo.installationId);
        const noInstallation = await api.get(
          `/code-source/${source.id}/module-yaml-exists`,
          owner.token,
        );
        expect(errorOf(noInstallation, 422).code).toBe(
          'InfraDelivery:ForgeInstallation:NOT_FOUND',
        );
      });

      it('refuses paths that leave the repository (400)', async () => {
        const owner = await api.signup();
        const source = await connect(owner);
        for (const query of [
          '?basePath=../other',
          '?basePath=a/./b',
          '?branch=a..b',
        ]) {
          const response = await api.get(
            `/code-source/${source.id}/module-yaml-exists${query}`,
            owner.token,
          );
          expect(errorOf(response, 400).code).toBe(
            'InfraDelivery:Request:VALIDATION_FAILED',
          );
        }
      });
    });

    describe('DELETE /code-sources/{id}', () => {
      it('disconnects a code source, but not while a module definition uses it', async () => {
        const owner = await api.signup();
        const used = await connect(owner);
        const unused = await connect(owner);
        const definition = await api.post(
          '/module-definitions',
          {
            data: {
              givenId: 'network',
              name: 'Network',
              codeSourceId: used.id,
              path: '',
            },
          },
          owner.token,
        );
        expectStatus(definition, 201);

        const refused = await api.delete(
          `/code-sources/${used.id}`,
          owner.token,
        );
        expect(errorOf(refused, 409).code).toBe(
          'InfraDelivery:CodeSource:IN_USE',
        );

        const deleted = await api.delete(
          `/code-sources/${unused.id}`,
          owner.token,
        );
        expect(deleted.status).toBe(204);
        expect(
          (await api.get(`/code-sources/${unused.id}`, owner.token)).status,
        ).toBe(404);

        expectStatus(
          await api.delete(
            `/module-definitions/${definition.body.data.id}`,
            owner.token,
          ),
          204,
        );
        expect(
          (await api.delete(`/code-sources/${used.id}`, owner.token)).status,
        ).toBe(204);
        expect(
          (await api.delete(`/code-sources/${used.id}`, owner.token)).status,
        ).toBe(404);
      });
    });

    describe('authorization', () => {
      it('lets VIEWERs read and refuses them writes (403)', async () => {
        const owner = await api.signup();
        const viewer = await api.member(owner, 'VIEWER');
        const member = await api.member(owner, 'MEMBER');
        const source = await connect(owner);
        const repo = repository();
        const body = {
          data: {
            forgeInstallationId: repo.installationId,
            repoUrl: repo.repoUrl,
            type: 'HOSTED_FORGE',
          },
        };

        expect((await api.get('/code-sources', viewer.token)).status).toBe(200);
        expect(
          (await api.get(`/code-sources/${source.id}`, viewer.token)).status,
        ).toBe(200);
        for (const response of [
          await api.post('/code-sources', body, viewer.token),
          await api.post(`/code-sources/${source.id}/verify`, {}, viewer.token),
          await api.delete(`/code-sources/${source.id}`, viewer.token),
        ]) {
          expect(errorOf(response, 403).code).toBe(
            'InfraDelivery:Auth:INSUFFICIENT_ROLE',
          );
        }
        expect(
          github.requestsTo(new RegExp(`/repos/acme/${repo.name}$`)),
        ).toEqual([]);
        expect(
          (await api.post('/code-sources', body, member.token)).status,
        ).toBe(201);
      });

      it("answers 404 for another organization's code source and never lists it", async () => {
        const owner = await api.signup();
        const stranger = await api.signup();
        const theirs = await connect(stranger);

        for (const response of [
          await api.get(`/code-sources/${theirs.id}`, owner.token),
          await api.post(`/code-sources/${theirs.id}/verify`, {}, owner.token),
          await api.delete(`/code-sources/${theirs.id}`, owner.token),
          await api.get(
            `/code-source/${theirs.id}/module-yaml-exists`,
            owner.token,
          ),
        ]) {
          const body = errorOf(response, 404);
          expect(body.code).toBe('InfraDelivery:CodeSource:NOT_FOUND');
        }
        expect((await api.get('/code-sources', owner.token)).body.data).toEqual(
          [],
        );
        expect(
          (await api.get(`/code-sources/${theirs.id}`, stranger.token)).status,
        ).toBe(200);
      });

      it('answers 401 without a credential', async () => {
        const owner = await api.signup();
        const source = await connect(owner);
        for (const response of [
          await api.get('/code-sources'),
          await api.get(`/code-sources/${source.id}`),
          await api.post('/code-sources', { data: {} }),
          await api.post(`/code-sources/${source.id}/verify`, {}),
          await api.delete(`/code-sources/${source.id}`),
          await api.get(`/code-source/${source.id}/module-yaml-exists`),
        ]) {
          expect(errorOf(response, 401).code).toBe(
            'InfraDelivery:Auth:MISSING_CREDENTIAL',
          );
        }
      });
    });

    it('pages through the code sources, each once', async () => {
      const owner = await api.signup();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push((await connect(owner)).id);
      }
      const first = await api.get('/code-sources?limit=2', owner.token);
      expect(first.body.data.map((s: any) => s.id)).toEqual([ids[4], ids[3]]);
      expect(first.body.meta).toEqual({
        limit: 2,
        nextCursor: expect.any(String),
        totalCount: 5,
      });
      const walked = await api.walk('/code-sources', owner.token, 2);
      expect(walked.map(s => s.id)).toEqual([...ids].reverse());

      const tampered = await api.get(
        `/code-sources?limit=2&cursor=${encodeURIComponent(
          `${first.body.meta.nextCursor}x`,
        )}`,
        owner.token,
      );
      expect(errorOf(tampered, 400).code).toBe(
        'InfraDelivery:Request:INVALID_CURSOR',
      );
    });
  },
);
