import {
  environmentSchema,
  errorBodySchema,
  projectSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import request from 'supertest';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

/** The one validation issue list of a 400 VALIDATION_FAILED answer. */
function validationItems(response: request.Response): string[] {
  expect(response.status).toBe(400);
  const body = errorBodySchema.parse(response.body);
  expect(body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
  expect(body.requestId).toEqual(expect.any(String));
  return body.details?.[0].items ?? [];
}

/** The same cursor with one character changed. */
function tamper(cursor: string, index: number): string {
  const replacement = cursor[index] === 'A' ? 'B' : 'A';
  return `${cursor.slice(0, index)}${replacement}${cursor.slice(index + 1)}`;
}

describe.each(databases.eachSupportedId())(
  'project routes on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      api = await startInfraDeliveryBackend(await databases.init(databaseId));
    });

    async function createProject(
      owner: { token: string },
      givenId: string,
      name = `Project ${givenId}`,
    ) {
      const response = await api.post(
        '/projects',
        { data: { givenId, name } },
        owner.token,
      );
      expect(response.status).toBe(201);
      return projectSchema.parse(response.body.data);
    }

    async function createEnvironment(
      owner: { token: string },
      projectId: string,
      givenId: string,
      name = `Environment ${givenId}`,
    ) {
      const response = await api.post(
        `/projects/${projectId}/environments`,
        { data: { givenId, name } },
        owner.token,
      );
      expect(response.status).toBe(201);
      return environmentSchema.parse(response.body.data);
    }

    describe('projects', () => {
      it('creates, reads, lists, updates and deletes a project', async () => {
        const owner = await api.signup();

        const created = await api.post(
          '/projects',
          {
            data: {
              givenId: 'payments',
              name: '  Payments  ',
              description: 'Card and SEPA payments',
            },
          },
          owner.token,
        );
        expect(created.status).toBe(201);
        const project = created.body.data;
        expect(project).toEqual({
          id: expect.any(String),
          organizationId: owner.organizationId,
          givenId: 'payments',
          name: 'Payments',
          description: 'Card and SEPA payments',
          createdAt: expect.any(String),
          updatedAt: project.createdAt,
        });
        expect(projectSchema.parse(project)).toEqual(project);

        const fetched = await api.get(`/projects/${project.id}`, owner.token);
        expect(fetched.status).toBe(200);
        expect(fetched.body).toEqual({ data: project });

        const listed = await api.get('/projects', owner.token);
        expect(listed.status).toBe(200);
        expect(listed.body).toEqual({
          data: [project],
          meta: { limit: 50, totalCount: 1 },
        });

        const renamed = await api.patch(
          `/projects/${project.id}`,
          { data: { name: 'Payments platform' } },
          owner.token,
        );
        expect(renamed.status).toBe(200);
        expect(renamed.body.data).toEqual({
          ...project,
          name: 'Payments platform',
          updatedAt: expect.any(String),
        });
        expect(
          new Date(renamed.body.data.updatedAt).getTime(),
        ).toBeGreaterThanOrEqual(new Date(project.updatedAt).getTime());

        const described = await api.patch(
          `/projects/${project.id}`,
          { data: { description: 'Only cards now' } },
          owner.token,
        );
        expect(described.status).toBe(200);
        expect(described.body.data).toEqual({
          ...renamed.body.data,
          description: 'Only cards now',
          updatedAt: expect.any(String),
        });
        const afterPatch = await api.get(
          `/projects/${project.id}`,
          owner.token,
        );
        expect(afterPatch.body).toEqual({ data: described.body.data });

        const deleted = await api.delete(
          `/projects/${project.id}`,
          owner.token,
        );
        expect(deleted.status).toBe(204);
        expect(deleted.text).toBe('');

        const gone = await api.get(`/projects/${project.id}`, owner.token);
        expect(gone.status).toBe(404);
        expect(gone.body.code).toBe('InfraDelivery:Project:NOT_FOUND');
        const again = await api.delete(`/projects/${project.id}`, owner.token);
        expect(again.status).toBe(404);
        expect(again.body.code).toBe('InfraDelivery:Project:NOT_FOUND');

        const empty = await api.get('/projects', owner.token);
        expect(empty.body).toEqual({
          data: [],
          meta: { limit: 50, totalCount: 0 },
        });
      });

      it('omits a description that was never set', async () => {
        const owner = await api.signup();
        const project = await createProject(owner, 'bare', 'Bare');
        expect(project).not.toHaveProperty('description');
        const fetched = await api.get(`/projects/${project.id}`, owner.token);
        expect(fetched.body.data).not.toHaveProperty('description');
      });

      it('does not change the givenId on PATCH', async () => {
        const owner = await api.signup();
        const project = await createProject(owner, 'fixed');
        const patched = await api.patch(
          `/projects/${project.id}`,
          { data: { name: 'Renamed', givenId: 'moved' } },
          owner.token,
        );
        expect(patched.status).toBe(200);
        expect(patched.body.data.givenId).toBe('fixed');
        expect(patched.body.data.name).toBe('Renamed');
      });

      it.each([
        ['an upper-case and underscore givenId', { givenId: 'Bad_ID' }],
        ['a givenId with a leading dash', { givenId: '-payments' }],
        ['a givenId with a trailing dash', { givenId: 'payments-' }],
        ['a givenId of 64 characters', { givenId: 'a'.repeat(64) }],
        ['an empty givenId', { givenId: '' }],
      ])('refuses %s (400)', async (_case, override) => {
        const owner = await api.signup();
        const response = await api.post(
          '/projects',
          { data: { name: 'Payments', ...override } },
          owner.token,
        );
        // An empty givenId breaks both the length and the pattern rule.
        const items = validationItems(response);
        expect(items.length).toBeGreaterThan(0);
        for (const item of items) {
          expect(item).toMatch(/^body\.data\.givenId: /);
        }
        const listed = await api.get('/projects', owner.token);
        expect(listed.body.meta.totalCount).toBe(0);
      });

      it('accepts a givenId of 63 characters', async () => {
        const owner = await api.signup();
        const givenId = `a${'-b'.repeat(31)}`;
        expect(givenId).toHaveLength(63);
        const project = await createProject(owner, givenId);
        expect(project.givenId).toBe(givenId);
      });

      it('refuses an empty or blank name and a missing body (400)', async () => {
        const owner = await api.signup();
        for (const name of ['', '   ']) {
          const response = await api.post(
            '/projects',
            { data: { givenId: 'payments', name } },
            owner.token,
          );
          expect(validationItems(response)).toEqual([
            expect.stringMatching(/^body\.data\.name: /),
          ]);
        }
        const both = await api.post(
          '/projects',
          { data: { givenId: 'Bad_ID', name: '' } },
          owner.token,
        );
        expect(validationItems(both)).toEqual([
          expect.stringMatching(/^body\.data\.givenId: /),
          expect.stringMatching(/^body\.data\.name: /),
        ]);
        const noData = await api.post('/projects', {}, owner.token);
        expect(validationItems(noData)).toEqual([
          expect.stringMatching(/^body\.data: /),
        ]);
      });

      it('refuses control characters in a name and a description (400), and keeps other Unicode', async () => {
        const owner = await api.signup();
        for (const name of [
          'a\u0000b',
          'bell\u0007',
          'Payments\u202eipa',
          'isolate\u2066x\u2069',
          'lone \ud800 surrogate',
          'two\nlines',
          'tab\there',
          'c1\u0085',
        ]) {
          const response = await api.post(
            '/projects',
            { data: { givenId: 'ctl', name } },
            owner.token,
          );
          expect(validationItems(response)).toEqual([
            expect.stringMatching(
              /^body\.data\.name: must not contain control characters/,
            ),
          ]);
        }
        const nul = await api.post(
          '/projects',
          { data: { givenId: 'ctl', name: 'Ctl', description: 'a\u0000b' } },
          owner.token,
        );
        expect(validationItems(nul)).toEqual([
          expect.stringMatching(
            /^body\.data\.description: must not contain control characters/,
          ),
        ]);
        expect((await api.get('/projects', owner.token)).body.data).toEqual([]);

        // Letters of any script, emoji and right-to-left text are names; a description keeps
        // its lines and tabs.
        const project = await api.post(
          '/projects',
          {
            data: {
              givenId: 'ctl',
              name: 'Zahlungen Ü 支付 مدفوعات\u200f 🚀👩‍💻',
              description: 'First line\n\tsecond line\r\n',
            },
          },
          owner.token,
        );
        expect(project.status).toBe(201);
        expect(project.body.data).toMatchObject({
          name: 'Zahlungen Ü 支付 مدفوعات\u200f 🚀👩‍💻',
          description: 'First line\n\tsecond line\r\n',
        });
        const renamed = await api.patch(
          `/projects/${project.body.data.id}`,
          { data: { name: 'x\u001by' } },
          owner.token,
        );
        expect(validationItems(renamed)).toEqual([
          expect.stringMatching(
            /^body\.data\.name: must not contain control characters/,
          ),
        ]);
      });

      it('refuses a PATCH without changes or with an empty name (400)', async () => {
        const owner = await api.signup();
        const project = await createProject(owner, 'payments', 'Payments');

        const empty = await api.patch(
          `/projects/${project.id}`,
          { data: {} },
          owner.token,
        );
        expect(validationItems(empty)).toEqual([
          expect.stringContaining('name or description is required'),
        ]);

        const blank = await api.patch(
          `/projects/${project.id}`,
          { data: { name: '' } },
          owner.token,
        );
        expect(validationItems(blank)).toEqual([
          expect.stringMatching(/^body\.data\.name: /),
        ]);

        const unchanged = await api.get(`/projects/${project.id}`, owner.token);
        expect(unchanged.body.data).toEqual(project);
      });

      it('keeps givenIds unique within the organization only (409)', async () => {
        const owner = await api.signup();
        const other = await api.signup();
        const first = await createProject(owner, 'payments', 'Payments');

        const duplicate = await api.post(
          '/projects',
          { data: { givenId: 'payments', name: 'Payments again' } },
          owner.token,
        );
        expect(duplicate.status).toBe(409);
        const body = errorBodySchema.parse(duplicate.body);
        expect(body.code).toBe('InfraDelivery:Project:GIVEN_ID_TAKEN');
        expect(body.metadata).toEqual({ givenId: 'payments' });

        const elsewhere = await createProject(other, 'payments', 'Theirs');
        expect(elsewhere.organizationId).toBe(other.organizationId);
        expect(elsewhere.id).not.toBe(first.id);

        const listed = await api.get('/projects', owner.token);
        expect(listed.body.data).toEqual([first]);
      });

      it('refuses to delete a project that still has environments (409)', async () => {
        const owner = await api.signup();
        const project = await createProject(owner, 'payments');
        const environment = await createEnvironment(owner, project.id, 'prod');

        const refused = await api.delete(
          `/projects/${project.id}`,
          owner.token,
        );
        expect(refused.status).toBe(409);
        expect(refused.body.code).toBe(
          'InfraDelivery:Project:HAS_ENVIRONMENTS',
        );
        const still = await api.get(`/projects/${project.id}`, owner.token);
        expect(still.status).toBe(200);

        const removed = await api.delete(
          `/projects/${project.id}/environments/${environment.id}`,
          owner.token,
        );
        expect(removed.status).toBe(204);
        const deleted = await api.delete(
          `/projects/${project.id}`,
          owner.token,
        );
        expect(deleted.status).toBe(204);
      });
    });

    describe('environments', () => {
      it('creates, reads, lists, updates and deletes an environment', async () => {
        const owner = await api.signup();
        const project = await createProject(owner, 'payments');

        const created = await api.post(
          `/projects/${project.id}/environments`,
          {
            data: {
              givenId: 'prod',
              name: 'Production',
              description: 'eu-central-1',
            },
          },
          owner.token,
        );
        expect(created.status).toBe(201);
        const environment = created.body.data;
        expect(environment).toEqual({
          id: expect.any(String),
          organizationId: owner.organizationId,
          projectId: project.id,
          givenId: 'prod',
          name: 'Production',
          description: 'eu-central-1',
          createdAt: expect.any(String),
          updatedAt: environment.createdAt,
        });
        expect(environmentSchema.parse(environment)).toEqual(environment);

        const path = `/projects/${project.id}/environments/${environment.id}`;
        const fetched = await api.get(path, owner.token);
        expect(fetched.status).toBe(200);
        expect(fetched.body).toEqual({ data: environment });

        const listed = await api.get(
          `/projects/${project.id}/environments`,
          owner.token,
        );
        expect(listed.status).toBe(200);
        expect(listed.body).toEqual({
          data: [environment],
          meta: { limit: 50, totalCount: 1 },
        });

        const updated = await api.patch(
          path,
          { data: { name: 'Prod', description: 'eu-west-1' } },
          owner.token,
        );
        expect(updated.status).toBe(200);
        expect(updated.body.data).toEqual({
          ...environment,
          name: 'Prod',
          description: 'eu-west-1',
          updatedAt: expect.any(String),
        });
        expect((await api.get(path, owner.token)).body).toEqual({
          data: updated.body.data,
        });

        const deleted = await api.delete(path, owner.token);
        expect(deleted.status).toBe(204);
        const gone = await api.get(path, owner.token);
        expect(gone.status).toBe(404);
        expect(gone.body.code).toBe('InfraDelivery:Environment:NOT_FOUND');
        const again = await api.delete(path, owner.token);
        expect(again.status).toBe(404);
        expect(again.body.code).toBe('InfraDelivery:Environment:NOT_FOUND');

        const empty = await api.get(
          `/projects/${project.id}/environments`,
          owner.token,
        );
        expect(empty.body.meta.totalCount).toBe(0);
        expect(empty.body.data).toEqual([]);
      });

      it('refuses to delete an environment that stacks are in, naming them (409)', async () => {
        const owner = await api.signup();
        const project = await createProject(owner, 'payments');
        const environment = await createEnvironment(owner, project.id, 'prod');
        const createStack = async (name: string) =>
          expect(
            (
              await api.post(
                '/stacks',
                {
                  data: {
                    projectId: project.id,
                    environmentId: environment.id,
                    name,
                  },
                },
                owner.token,
              )
            ).status,
          ).toBe(201);
        const refusal = async () =>
          api.delete(
            `/projects/${project.id}/environments/${environment.id}`,
            owner.token,
          );

        await createStack('Network');
        const one = await refusal();
        expect(one.status).toBe(409);
        expect(one.body).toMatchObject({
          code: 'InfraDelivery:Environment:IN_USE',
          message: 'Stack Network still uses this environment: delete it first',
          metadata: { stacks: 1, moduleInstances: 0 },
        });

        await createStack('Database');
        expect((await refusal()).body.message).toMatch(
          /^Stack \w+ and stack \w+ still use this environment: delete them first$/,
        );
        for (const name of ['Cache', 'Queue']) {
          await createStack(name);
        }
        const four = await refusal();
        expect(four.body.message).toMatch(
          /^Stack \w+, stack \w+, stack \w+ and 1 more still use this environment: delete them first$/,
        );
      });

      it('refuses invalid input (400)', async () => {
        const owner = await api.signup();
        const project = await createProject(owner, 'payments');
        const environment = await createEnvironment(owner, project.id, 'prod');

        const badGivenId = await api.post(
          `/projects/${project.id}/environments`,
          { data: { givenId: 'Bad_ID', name: 'Production' } },
          owner.token,
        );
        expect(validationItems(badGivenId)).toEqual([
          expect.stringMatching(/^body\.data\.givenId: /),
        ]);

        const emptyName = await api.post(
          `/projects/${project.id}/environments`,
          { data: { givenId: 'staging', name: '' } },
          owner.token,
        );
        expect(validationItems(emptyName)).toEqual([
          expect.stringMatching(/^body\.data\.name: /),
        ]);

        const emptyPatch = await api.patch(
          `/projects/${project.id}/environments/${environment.id}`,
          { data: {} },
          owner.token,
        );
        expect(validationItems(emptyPatch)).toEqual([
          expect.stringContaining('name or description is required'),
        ]);

        const listed = await api.get(
          `/projects/${project.id}/environments`,
          owner.token,
        );
        expect(listed.body.data).toEqual([environment]);
      });

      it('keeps givenIds unique within the project only (409)', async () => {
        const owner = await api.signup();
        const payments = await createProject(owner, 'payments');
        const billing = await createProject(owner, 'billing');
        const prod = await createEnvironment(owner, payments.id, 'prod');

        const duplicate = await api.post(
          `/projects/${payments.id}/environments`,
          { data: { givenId: 'prod', name: 'Production again' } },
          owner.token,
        );
        expect(duplicate.status).toBe(409);
        expect(duplicate.body.code).toBe(
          'InfraDelivery:Environment:GIVEN_ID_TAKEN',
        );

        const inOtherProject = await createEnvironment(
          owner,
          billing.id,
          'prod',
        );
        expect(inOtherProject.projectId).toBe(billing.id);

        const paymentsEnvironments = await api.get(
          `/projects/${payments.id}/environments`,
          owner.token,
        );
        expect(paymentsEnvironments.body.data).toEqual([prod]);
        const billingEnvironments = await api.get(
          `/projects/${billing.id}/environments`,
          owner.token,
        );
        expect(billingEnvironments.body.data).toEqual([inOtherProject]);
      });

      it('does not reach an environment through another project of the organization', async () => {
        const owner = await api.signup();
        const payments = await createProject(owner, 'payments');
        const billing = await createProject(owner, 'billing');
        const prod = await createEnvironment(owner, payments.id, 'prod');

        const path = `/projects/${billing.id}/environments/${prod.id}`;
        expect((await api.get(path, owner.token)).status).toBe(404);
        const patched = await api.patch(
          path,
          { data: { name: 'Moved' } },
          owner.token,
        );
        expect(patched.status).toBe(404);
        expect((await api.delete(path, owner.token)).status).toBe(404);

        const unchanged = await api.get(
          `/projects/${payments.id}/environments/${prod.id}`,
          owner.token,
        );
        expect(unchanged.body.data).toEqual(prod);
      });

      it('answers 404 for environments of an unknown project', async () => {
        const owner = await api.signup();
        const project = await createProject(owner, 'payments');
        await api.delete(`/projects/${project.id}`, owner.token);

        const created = await api.post(
          `/projects/${project.id}/environments`,
          { data: { givenId: 'prod', name: 'Production' } },
          owner.token,
        );
        expect(created.status).toBe(404);
        expect(created.body.code).toBe('InfraDelivery:Project:NOT_FOUND');
        const listed = await api.get(
          `/projects/${project.id}/environments`,
          owner.token,
        );
        expect(listed.status).toBe(404);
        expect(listed.body.code).toBe('InfraDelivery:Project:NOT_FOUND');
      });
    });

    describe('authorization', () => {
      it('answers 401 without a credential or with a bad one', async () => {
        const owner = await api.signup();
        const project = await createProject(owner, 'payments');
        const environment = await createEnvironment(owner, project.id, 'prod');
        const envPath = `/projects/${project.id}/environments/${environment.id}`;

        const calls = [
          api.get('/projects'),
          api.post('/projects', { data: { givenId: 'x', name: 'X' } }),
          api.get(`/projects/${project.id}`),
          api.patch(`/projects/${project.id}`, { data: { name: 'X' } }),
          api.delete(`/projects/${project.id}`),
          api.get(`/projects/${project.id}/environments`),
          api.post(`/projects/${project.id}/environments`, {
            data: { givenId: 'x', name: 'X' },
          }),
          api.get(envPath),
          api.patch(envPath, { data: { name: 'X' } }),
          api.delete(envPath),
        ];
        for (const response of await Promise.all(calls)) {
          expect(response.status).toBe(401);
          expect(response.body.code).toBe(
            'InfraDelivery:Auth:MISSING_CREDENTIAL',
          );
          expect(JSON.stringify(response.body)).not.toContain('payments');
        }

        const badToken = await api.get(
          `/projects/${project.id}`,
          'not-a-real-token',
        );
        expect(badToken.status).toBe(401);
        expect(JSON.stringify(badToken.body)).not.toContain('payments');

        const still = await api.get(envPath, owner.token);
        expect(still.body.data).toEqual(environment);
      });

      it('lets a VIEWER read but not write (403)', async () => {
        const owner = await api.signup();
        const viewer = await api.member(owner, 'VIEWER');
        const project = await createProject(owner, 'payments', 'Payments');
        const environment = await createEnvironment(owner, project.id, 'prod');
        const envPath = `/projects/${project.id}/environments/${environment.id}`;

        expect((await api.get('/projects', viewer.token)).body.data).toEqual([
          project,
        ]);
        expect(
          (await api.get(`/projects/${project.id}`, viewer.token)).body.data,
        ).toEqual(project);
        expect(
          (await api.get(`/projects/${project.id}/environments`, viewer.token))
            .body.data,
        ).toEqual([environment]);
        expect((await api.get(envPath, viewer.token)).body.data).toEqual(
          environment,
        );

        const writes = [
          await api.post(
            '/projects',
            { data: { givenId: 'billing', name: 'Billing' } },
            viewer.token,
          ),
          await api.patch(
            `/projects/${project.id}`,
            { data: { name: 'Hijacked' } },
            viewer.token,
          ),
          await api.delete(`/projects/${project.id}`, viewer.token),
          await api.post(
            `/projects/${project.id}/environments`,
            { data: { givenId: 'staging', name: 'Staging' } },
            viewer.token,
          ),
          await api.patch(
            envPath,
            { data: { name: 'Hijacked' } },
            viewer.token,
          ),
          await api.delete(envPath, viewer.token),
        ];
        for (const response of writes) {
          expect(response.status).toBe(403);
          const body = errorBodySchema.parse(response.body);
          expect(body.code).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');
          expect(body.metadata).toEqual({
            requiredRole: 'MEMBER',
            role: 'VIEWER',
          });
        }

        expect((await api.get('/projects', owner.token)).body.data).toEqual([
          project,
        ]);
        expect(
          (await api.get(`/projects/${project.id}/environments`, owner.token))
            .body.data,
        ).toEqual([environment]);
      });

      it('lets a MEMBER write', async () => {
        const owner = await api.signup();
        const member = await api.member(owner, 'MEMBER');
        const project = await createProject(member, 'payments');
        const environment = await createEnvironment(member, project.id, 'prod');
        const envPath = `/projects/${project.id}/environments/${environment.id}`;
        const renamed = await api.patch(
          envPath,
          { data: { name: 'Production' } },
          member.token,
        );
        expect(renamed.status).toBe(200);
        expect((await api.delete(envPath, member.token)).status).toBe(204);
        expect(
          (await api.delete(`/projects/${project.id}`, member.token)).status,
        ).toBe(204);
      });

      it("answers 404 for another organization's projects and environments without leaking them", async () => {
        const owner = await api.signup();
        const intruder = await api.signup();
        const secret = await api.post(
          '/projects',
          {
            data: {
              givenId: 'secret-vault',
              name: 'Secret vault',
              description: 'Crown jewels',
            },
          },
          owner.token,
        );
        const project = projectSchema.parse(secret.body.data);
        const environment = await createEnvironment(
          owner,
          project.id,
          'hidden-prod',
          'Hidden production',
        );
        const envPath = `/projects/${project.id}/environments/${environment.id}`;
        // The intruder's own project, to try the other organization's environment through it.
        const own = await createProject(intruder, 'own');

        const attempts = [
          await api.get(`/projects/${project.id}`, intruder.token),
          await api.patch(
            `/projects/${project.id}`,
            { data: { name: 'Taken over' } },
            intruder.token,
          ),
          await api.delete(`/projects/${project.id}`, intruder.token),
          await api.get(`/projects/${project.id}/environments`, intruder.token),
          await api.post(
            `/projects/${project.id}/environments`,
            { data: { givenId: 'planted', name: 'Planted' } },
            intruder.token,
          ),
          await api.get(envPath, intruder.token),
          await api.patch(
            envPath,
            { data: { name: 'Taken over' } },
            intruder.token,
          ),
          await api.delete(envPath, intruder.token),
          await api.get(
            `/projects/${own.id}/environments/${environment.id}`,
            intruder.token,
          ),
        ];
        for (const response of attempts) {
          expect(response.status).toBe(404);
          expect(response.body.code).toMatch(
            /^InfraDelivery:(Project|Environment):NOT_FOUND$/,
          );
          const text = JSON.stringify(response.body);
          for (const leaked of [
            owner.organizationId,
            'secret-vault',
            'Secret vault',
            'Crown jewels',
            'hidden-prod',
            'Hidden production',
          ]) {
            expect(text).not.toContain(leaked);
          }
        }

        const intruderList = await api.get('/projects', intruder.token);
        expect(intruderList.body.data).toEqual([own]);

        expect(
          (await api.get(`/projects/${project.id}`, owner.token)).body.data,
        ).toEqual(project);
        expect((await api.get(envPath, owner.token)).body.data).toEqual(
          environment,
        );
        expect(
          (await api.get(`/projects/${project.id}/environments`, owner.token))
            .body.data,
        ).toEqual([environment]);
      });
    });

    describe('pagination', () => {
      it('walks every project once, newest first, with the total count', async () => {
        const owner = await api.signup();
        const other = await api.signup();
        await createProject(other, 'not-mine');
        const created = [];
        for (let i = 1; i <= 7; i++) {
          created.push(await createProject(owner, `project-${i}`));
        }
        const newestFirst = [...created].reverse();

        const first = await api.get('/projects?limit=3', owner.token);
        expect(first.status).toBe(200);
        expect(first.body.data).toEqual(newestFirst.slice(0, 3));
        expect(first.body.meta).toEqual({
          limit: 3,
          nextCursor: expect.any(String),
          totalCount: 7,
        });
        const second = await api.get(
          `/projects?limit=3&cursor=${encodeURIComponent(
            first.body.meta.nextCursor,
          )}`,
          owner.token,
        );
        expect(second.body.data).toEqual(newestFirst.slice(3, 6));
        expect(second.body.meta).toEqual({
          limit: 3,
          nextCursor: expect.any(String),
          totalCount: 7,
        });
        const third = await api.get(
          `/projects?limit=3&cursor=${encodeURIComponent(
            second.body.meta.nextCursor,
          )}`,
          owner.token,
        );
        expect(third.body.data).toEqual(newestFirst.slice(6));
        expect(third.body.meta).toEqual({
          limit: 3,
          totalCount: 7,
        });
        // The specification types `nextCursor` as a string: the last page leaves it out.
        expect(third.body.meta).not.toHaveProperty('nextCursor');

        const walked = await api.walk('/projects', owner.token, 3);
        expect(walked).toEqual(newestFirst);
        expect(new Set(walked.map(p => p.id)).size).toBe(7);

        // A page that ends exactly at the last item has no next cursor.
        const exact = await api.get('/projects?limit=7', owner.token);
        expect(exact.body.data).toEqual(newestFirst);
        expect(exact.body.meta).not.toHaveProperty('nextCursor');
        expect(await api.walk('/projects', owner.token, 1)).toEqual(
          newestFirst,
        );
      });

      it('walks environments of one project only', async () => {
        const owner = await api.signup();
        const payments = await createProject(owner, 'payments');
        const billing = await createProject(owner, 'billing');
        await createEnvironment(owner, billing.id, 'elsewhere');
        const created = [];
        for (let i = 1; i <= 5; i++) {
          created.push(await createEnvironment(owner, payments.id, `env-${i}`));
        }
        const path = `/projects/${payments.id}/environments`;
        const first = await api.get(`${path}?limit=2`, owner.token);
        expect(first.body.meta).toEqual({
          limit: 2,
          nextCursor: expect.any(String),
          totalCount: 5,
        });
        expect(await api.walk(path, owner.token, 2)).toEqual(
          [...created].reverse(),
        );

        // A cursor of one project's environments is not valid for another project's.
        const crossProject = await api.get(
          `/projects/${billing.id}/environments?cursor=${encodeURIComponent(
            first.body.meta.nextCursor,
          )}`,
          owner.token,
        );
        expect(crossProject.status).toBe(400);
        expect(crossProject.body.code).toBe(
          'InfraDelivery:Request:INVALID_CURSOR',
        );
      });

      it('refuses a cursor of another organization, another list, or tampered with (400)', async () => {
        const owner = await api.signup();
        const other = await api.signup();
        for (let i = 1; i <= 3; i++) {
          await createProject(owner, `project-${i}`);
          await createProject(other, `project-${i}`);
        }
        const page = await api.get('/projects?limit=1', owner.token);
        const cursor: string = page.body.meta.nextCursor;
        expect(cursor).toEqual(expect.any(String));

        const expectInvalid = async (path: string, token: string) => {
          const response = await api.get(path, token);
          expect(response.status).toBe(400);
          const body = errorBodySchema.parse(response.body);
          expect(body.code).toBe('InfraDelivery:Request:INVALID_CURSOR');
          expect(JSON.stringify(body)).not.toContain('project-');
        };

        await expectInvalid(
          `/projects?limit=1&cursor=${encodeURIComponent(cursor)}`,
          other.token,
        );
        const [payload, signature] = cursor.split('.');
        for (const tampered of [
          tamper(cursor, 0),
          tamper(cursor, payload.length - 1),
          tamper(cursor, payload.length + 1),
          tamper(cursor, cursor.length - 1),
          `${payload}.`,
          `.${signature}`,
          payload,
          `${cursor}.extra`,
          'not-a-cursor',
        ]) {
          expect(tampered).not.toBe(cursor);
          await expectInvalid(
            `/projects?limit=1&cursor=${encodeURIComponent(tampered)}`,
            owner.token,
          );
        }
        await expectInvalid(
          `/default-value-definitions?cursor=${encodeURIComponent(cursor)}`,
          owner.token,
        );

        // The untouched cursor still works for its own organization.
        const next = await api.get(
          `/projects?limit=1&cursor=${encodeURIComponent(cursor)}`,
          owner.token,
        );
        expect(next.status).toBe(200);
        expect(next.body.data).toHaveLength(1);
        expect(next.body.data[0].organizationId).toBe(owner.organizationId);
      });

      it.each(['0', '501', '-1', '2.5', 'ten'])(
        'refuses limit=%s (400)',
        async limit => {
          const owner = await api.signup();
          const response = await api.get(
            `/projects?limit=${limit}`,
            owner.token,
          );
          expect(validationItems(response)).toEqual([
            expect.stringMatching(/^query\.limit: /),
          ]);
          const project = await createProject(owner, 'payments');
          const environments = await api.get(
            `/projects/${project.id}/environments?limit=${limit}`,
            owner.token,
          );
          expect(validationItems(environments)).toEqual([
            expect.stringMatching(/^query\.limit: /),
          ]);
        },
      );

      it('accepts limit=1 and limit=500', async () => {
        const owner = await api.signup();
        await createProject(owner, 'payments');
        for (const limit of [1, 500]) {
          const response = await api.get(
            `/projects?limit=${limit}`,
            owner.token,
          );
          expect(response.status).toBe(200);
          expect(response.body.meta).toEqual({
            limit,
            totalCount: 1,
          });
        }
      });
    });
  },
);
