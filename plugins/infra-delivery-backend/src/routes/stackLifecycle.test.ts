import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';
import { createStack, trigger } from '../__testUtils__/pipelineFixtures';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())(
  'updating and destroying stacks on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      api = await startInfraDeliveryBackend(await databases.init(databaseId));
    });

    it('renames a stack and moves its code path', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const response = await api.patch(
        `/stacks/${stack.id}`,
        { data: { name: 'Edge network', path: 'modules/edge' } },
        owner.token,
      );
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        id: stack.id,
        name: 'Edge network',
        path: 'modules/edge',
        givenId: stack.givenId,
      });
    });

    it('publishes new pipeline versions when autoApprove changes, leaving started runs alone', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const started = await trigger(api, owner, stack.changePipelineId);

      const response = await api.patch(
        `/stacks/${stack.id}`,
        { data: { autoApprove: true } },
        owner.token,
      );
      expect(response.body.data.autoApprove).toBe(true);

      const versions = await api.get(
        `/pipelines/${stack.changePipelineId}/versions`,
        owner.token,
      );
      expect(
        versions.body.data.map((v: { steps: { type: string }[] }) =>
          v.steps.map(s => s.type),
        ),
      ).toEqual([
        ['iac.plan', 'iac.apply'],
        ['iac.plan', 'approval', 'iac.apply'],
      ]);
      const steps = await api.get(
        `/pipeline-runs/${started.id}/step-executions`,
        owner.token,
      );
      expect(steps.body.data.map((s: { type: string }) => s.type)).toEqual([
        'iac.plan',
        'approval',
        'iac.apply',
      ]);
    });

    it('refuses an empty change, an unknown code source and a VIEWER', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const empty = await api.patch(
        `/stacks/${stack.id}`,
        { data: {} },
        owner.token,
      );
      expect(empty.status).toBe(400);
      const unknownSource = await api.patch(
        `/stacks/${stack.id}`,
        { data: { codeSourceId: 'no-such-source' } },
        owner.token,
      );
      expect(unknownSource.status).toBe(404);
      expect(unknownSource.body.code).toBe(
        'InfraDelivery:CodeSource:NOT_FOUND',
      );
      const viewer = await api.member(owner, 'VIEWER');
      const refused = await api.patch(
        `/stacks/${stack.id}`,
        { data: { name: 'x' } },
        viewer.token,
      );
      expect(refused.status).toBe(403);
    });

    it('destroys a stack by queueing its destroy pipeline', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const response = await api.post(
        `/stacks/${stack.id}/destroy`,
        {},
        owner.token,
      );
      expect(response.status).toBe(201);
      expect(response.body.data).toMatchObject({
        pipelineId: stack.destroyPipelineId,
        attachedEntityId: stack.id,
        description: 'Destroy the stack',
        status: 'RUNNING',
      });
      const other = await api.signup();
      const foreign = await api.post(
        `/stacks/${stack.id}/destroy`,
        {},
        other.token,
      );
      expect(foreign.status).toBe(404);
      const anonymous = await api.post(`/stacks/${stack.id}/destroy`, {});
      expect(anonymous.status).toBe(401);
    });
  },
);
