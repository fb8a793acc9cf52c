import { actionsRegistryServiceFactory } from '@backstage/backend-defaults/alpha';
import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import {
  claim,
  complete,
  createRunner,
  createStack,
  expectStatus,
  trigger,
} from '../__testUtils__/pipelineFixtures';
import {
  BASE,
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

const OWNER = 'user:default/owner';
const VIEWER = 'user:default/viewer';

const CONFIG = {
  backend: { actions: { pluginSources: ['infra-delivery'] } },
  infraDelivery: {
    roleMappings: [{ entityRef: OWNER, role: 'OWNER' }],
    defaultRole: 'VIEWER',
  },
};

/** A plan of two buckets: the first `changed` of them change in place, the rest do not. */
function planJson(changed: number) {
  return {
    format_version: '1.2',
    terraform_version: '1.9.0',
    resource_changes: [0, 1].map(i => ({
      address: `aws_s3_bucket.bucket[${i}]`,
      mode: 'managed',
      type: 'aws_s3_bucket',
      name: 'bucket',
      index: i,
      provider_name: 'registry.terraform.io/hashicorp/aws',
      change: {
        actions: [i < changed ? 'update' : 'no-op'],
        before: { bucket: `bucket-${i}`, versioning: i < changed },
        after: { bucket: `bucket-${i}`, versioning: false },
        after_sensitive: {},
      },
    })),
  };
}

describe.each(databases.eachSupportedId())(
  'the get-stack-drift tool on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      api = await startInfraDeliveryBackend(await databases.init(databaseId), {
        config: CONFIG,
        extraFeatures: [actionsRegistryServiceFactory],
      });
    });

    function invoke(user: string, input: object) {
      return request(api.server)
        .post(
          `${BASE}/.backstage/actions/v1/actions/infra-delivery:get-stack-drift/invoke`,
        )
        .set('authorization', mockCredentials.user.header(user))
        .send(input);
    }

    it('tells a never-checked stack from a drifted one, with what drifted', async () => {
      const owner = { token: api.backstageUserToken(OWNER) };
      const stack = await createStack(api, owner, { autoApprove: true });
      const runner = await createRunner(api, owner);

      const unchecked = await invoke(VIEWER, { stackId: stack.id });
      expectStatus(unchecked, 200);
      expect(unchecked.body.output).toEqual({
        stackId: stack.id,
        name: stack.name,
        driftStatus: 'UNKNOWN',
        driftedResources: [],
        moreResources: false,
      });

      // Applied, then checked: one of the two buckets drifted.
      await trigger(api, owner, stack.changePipelineId);
      for (let step = 0; step < 2; step++) {
        await complete(api, runner.key, await claim(api, runner.key), {
          status: 'SUCCEEDED',
          planJson: planJson(2),
        });
      }
      const check = await api.post(
        `/stacks/${stack.id}/drift-checks`,
        { data: {} },
        owner.token,
      );
      expectStatus(check, 201);
      await complete(api, runner.key, await claim(api, runner.key), {
        status: 'SUCCEEDED',
        planJson: planJson(1),
      });

      const drifted = await invoke(VIEWER, { stackId: stack.id });
      expectStatus(drifted, 200);
      expect(drifted.body.output).toEqual({
        stackId: stack.id,
        name: stack.name,
        driftStatus: 'DRIFTED',
        driftedResourceCount: 1,
        lastDriftCheckAt: expect.any(String),
        lastDriftCheckRunId: check.body.data.id,
        driftedResources: [
          {
            address: 'aws_s3_bucket.bucket[0]',
            changeKind: 'UPDATE',
            before: { bucket: 'bucket-0', versioning: true },
            after: { bucket: 'bucket-0', versioning: false },
          },
        ],
        moreResources: false,
      });
    });

    it("answers another organization's stack as missing", async () => {
      const outsider = await api.signup();
      const stack = await createStack(api, outsider);
      const response = await invoke(VIEWER, { stackId: stack.id });
      expect(response.status).toBe(404);
    });
  },
);
