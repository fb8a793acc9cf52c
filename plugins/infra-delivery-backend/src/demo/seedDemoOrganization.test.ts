import fs from 'node:fs';
import path from 'node:path';
import { mockServices } from '@backstage/backend-test-utils';
import {
  migratedStores,
  recordingEngine,
} from '../__testUtils__/engineFixtures';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import {
  DEMO_CLOUD_ACCOUNT_ID,
  DEMO_STACK_IDS,
  seedDemoOrganization,
} from './seedDemoOrganization';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())(
  'the demo seed on %s',
  databaseId => {
    it('leaves runs in every state, and seeds only once', async () => {
      const stores = await migratedStores(await databases.init(databaseId));
      const { engine } = recordingEngine(stores);
      const organization = await stores.organizations.create({
        name: 'Portal',
        isPortal: true,
      });
      const seed = () =>
        seedDemoOrganization({
          stores,
          engine,
          organizationId: organization.id,
          logger: mockServices.logger.mock(),
        });
      await seed();
      await seed();

      const runs = await stores.pipelineRuns.listRuns(
        organization.id,
        {},
        { limit: 50 },
      );
      const byDescription = Object.fromEntries(
        runs.items.map(run => [run.description, run]),
      );
      expect(runs.totalCount).toBe(7);
      expect(
        byDescription['Plan of pull request #12: Widen the private subnets'],
      ).toMatchObject({
        kind: 'PULL_REQUEST_PLAN',
        triggerSource: 'PULL_REQUEST',
        status: 'SUCCEEDED',
        gitSource: {
          commit: { message: 'Widen the private subnets', author: 'alice' },
          pullRequest: { number: 12 },
        },
      });
      expect(
        byDescription['Push to main: Widen the private subnets (#12)'],
      ).toMatchObject({
        kind: 'STANDARD',
        triggerSource: 'GIT_PUSH',
        status: 'FAILED',
        triggerMetadata: { webhook_event: 'push' },
        gitSource: { branch: 'main' },
      });
      expect(
        (await stores.stacks.get(organization.id, DEMO_STACK_IDS.network))
          ?.gitTrigger,
      ).toMatchObject({ branch: 'main', pullRequestPlans: true });
      // Each step the seed ran names the demo's runner, by the account it ran as, as a run
      // page shows it ("Plan on Demo runner"), and a failed one logs the tool's error.
      const pushSteps = await stores.pipelineRuns.listSteps(
        byDescription['Push to main: Widen the private subnets (#12)'].id,
      );
      expect(pushSteps[0]).toMatchObject({
        leaseRunnerId: 'demo-runner',
        runnerName: 'Demo runner',
        error: {
          code: 'InfraDelivery:Runner:COMMAND_FAILED',
          message: expect.stringContaining('Error acquiring the state lock'),
        },
      });
      const pushLog = await stores.pipelineRuns.listLogs(pushSteps[0].id, {
        limit: 10,
      });
      expect(pushLog.items.map(line => line.text)).toEqual([
        'Plan (demo data, no cloud was called)',
        expect.stringContaining('Error acquiring the state lock'),
      ]);
      expect(byDescription['Initial rollout'].status).toBe('SUCCEEDED');
      expect(byDescription['Raise the alert thresholds']).toMatchObject({
        status: 'WAITING_FOR_APPROVAL',
        input: { alarm_threshold_percent: 90 },
      });
      // Its plan is the example module's of the state the initial rollout left, which the
      // local runner's apply plans again: the three alarms' thresholds change.
      const waitingPlans = await stores.iacResults.listSummaries(
        organization.id,
        { pipelineRunId: byDescription['Raise the alert thresholds'].id },
        { limit: 10 },
      );
      expect(waitingPlans.items).toEqual([
        expect.objectContaining({
          runType: 'PLAN',
          addCount: 0,
          changeCount: 3,
          destroyCount: 0,
          unchangedCount: 1,
        }),
      ]);
      expect(byDescription['Add the on-call route']).toMatchObject({
        status: 'QUEUED',
        // It keeps the raised thresholds: its plan adds the route, and changes nothing else.
        input: {
          alarm_threshold_percent: 90,
          on_call_route: 'payments-primary',
        },
        queueState: expect.objectContaining({
          preflightBlockedByAdmissionCondition: true,
          blockingRunId: byDescription['Raise the alert thresholds'].id,
        }),
      });
      expect(byDescription['First plan'].status).toBe('FAILED');
      // The runs started by hand name the demo's service account (created once), so the
      // portal reads "Triggered by Demo data".
      const demoAccounts = (
        await stores.serviceAccounts.list(organization.id, { limit: 50 })
      ).items.filter(account => account.name === 'Demo data');
      expect(demoAccounts).toHaveLength(1);
      for (const description of [
        'Initial rollout',
        'Raise the alert thresholds',
        'Add the on-call route',
        'First plan',
      ]) {
        expect(byDescription[description].createdById).toBe(demoAccounts[0].id);
      }

      const counts = await stores.iacResults.countStackState(
        organization.id,
        Object.values(DEMO_STACK_IDS),
      );
      expect(counts).toEqual([
        { stackId: DEMO_STACK_IDS.monitoring, count: 4 },
      ]);
      const stack = await stores.stacks.get(
        organization.id,
        DEMO_STACK_IDS.monitoring,
      );
      expect(stack?.output).toEqual({
        region: 'eu-west-1',
        alarms: {
          cpu: 'CPUUtilization',
          errors: 'HTTPCode_Target_5XX_Count',
          memory: 'MemoryUtilization',
        },
      });
      expect(stack?.description).toBe(
        'The alarms and dashboard of the payments API',
      );
      // Drift detection is on for this stack, and its check found drift.
      expect(stack).toMatchObject({
        driftCheckIntervalHours: 1,
        driftStatus: 'DRIFTED',
        // The CPU alarm's threshold, changed outside the code.
        driftedResourceCount: 1,
        lastDriftCheckRunId: byDescription['Scheduled drift check'].id,
      });
      expect(byDescription['Scheduled drift check']).toMatchObject({
        kind: 'DRIFT_CHECK',
        triggerSource: 'DRIFT_SCHEDULE',
        status: 'SUCCEEDED',
      });

      const accounts = await stores.cloudAccounts.list(organization.id, {
        limit: 10,
      });
      expect(accounts.items.map(a => [a.givenId, a.status]).sort()).toEqual([
        ['demo-production', 'CONNECTED'],
        ['demo-sandbox', 'AWAITING_CONNECTION'],
      ]);
      for (const stackId of Object.values(DEMO_STACK_IDS)) {
        expect(
          (await stores.stacks.get(organization.id, stackId))?.cloudAccountId,
        ).toBe(DEMO_CLOUD_ACCOUNT_ID);
      }

      const defaults = await stores.defaultValueDefinitions.list(
        organization.id,
        { limit: 10 },
      );
      expect(defaults.items.map(d => d.givenId)).toEqual(['aws-region']);
      // Two modules in the Network stack's repository, the VPC deployed into production.
      const modules = await stores.moduleDefinitions.list(
        organization.id,
        {},
        { limit: 10 },
      );
      expect(modules.items.map(m => [m.givenId, m.path]).sort()).toEqual([
        ['service-alarms', 'modules/service-alarms'],
        ['vpc', 'modules/vpc'],
      ]);
      const vpc = modules.items.find(m => m.givenId === 'vpc')!;
      const versions = await stores.moduleDefinitions.listVersions(
        organization.id,
        vpc.id,
        { limit: 10 },
      );
      expect(versions.items.map(v => v.version).sort()).toEqual([
        '1.0.0',
        '1.1.0',
      ]);
      const instances = await stores.moduleInstances.list(
        organization.id,
        {},
        { limit: 10 },
      );
      expect(instances.items).toEqual([
        expect.objectContaining({
          name: 'payments-network',
          moduleDefinitionId: vpc.id,
          moduleVersionId: versions.items.find(v => v.version === '1.1.0')!.id,
          values: { region: 'eu-west-1', cidr_block: '10.20.0.0/16' },
        }),
      ]);
    });
  },
);

describe('the demo plans', () => {
  const repo = path.resolve(__dirname, '../../../..');
  const declaredIn = (module: string) =>
    [
      ...fs
        .readFileSync(path.join(repo, `examples/iac/${module}/main.tf`), 'utf8')
        .matchAll(/^resource "(\w+)" "(\w+)"/gm),
    ]
      .map(([, type, name]) => `${type}.${name}`)
      .sort();
  const demoFile = (name: string) =>
    JSON.parse(
      fs.readFileSync(path.join(__dirname, `../../demo/plans/${name}`), 'utf8'),
    );

  // Regenerate them with scripts/generate-demo-plans when this fails.
  it.each([
    ['monitoring', 'monitoring'],
    ['monitoring-drift', 'monitoring'],
    ['monitoring-alerts', 'monitoring'],
    ['network', 'network'],
  ])(
    '%s plans the resources of examples/iac/%s, which the local runner plans',
    (plan, module) => {
      const planned = demoFile(
        `${plan}.plan.json`,
      ).configuration.root_module.resources.map(
        (resource: { address: string }) => resource.address,
      );
      expect(planned.sort()).toEqual(declaredIn(module));
    },
  );

  it('gives the local runner the state that the initial rollout applies', () => {
    const created = demoFile('monitoring.plan.json')
      .resource_changes.filter((change: { change: { actions: string[] } }) =>
        change.change.actions.includes('create'),
      )
      .map((change: { address: string }) => change.address);
    const state = demoFile('monitoring.tfstate');
    const held = state.resources.flatMap(
      (resource: {
        type: string;
        name: string;
        instances: { index_key?: string | number }[];
      }) =>
        resource.instances.map(({ index_key: key }) =>
          key === undefined
            ? `${resource.type}.${resource.name}`
            : `${resource.type}.${resource.name}[${JSON.stringify(key)}]`,
        ),
    );
    expect(held.sort()).toEqual(created.sort());
  });
});
