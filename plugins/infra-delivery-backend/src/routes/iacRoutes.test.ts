import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  errorBodySchema,
  IacExecutionSummary,
  iacExecutionSummarySchema,
  IacResource,
  iacResourceSchema,
  PipelineRun,
  Stack,
  stackSchema,
  StepExecution,
} from '@infra-delivery/plugin-infra-delivery-common';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import {
  act,
  claim,
  complete,
  createRunner,
  createStack,
  expectStatus,
  getRun,
  getSteps,
  trigger,
} from '../__testUtils__/pipelineFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

type Plan = Record<string, unknown>;

interface PlanResourceChange {
  address: string;
  mode?: string;
  change: { actions: string[] };
}

function loadPlan(file: string): Plan {
  return JSON.parse(
    readFileSync(join(__dirname, '../iac/__fixtures__/tf-plans', file), 'utf8'),
  );
}

/** Real AWS plan: 5 to add, 1 to change, 2 to destroy, 7 unchanged (15 resources). */
const ISSUE_522 = loadPlan('terraform-compliance__test_issue_522.plan.json');
const ISSUE_522_CHANGES = ISSUE_522.resource_changes as PlanResourceChange[];
const ISSUE_522_ADDRESSES = ISSUE_522_CHANGES.map(c => c.address);
const ISSUE_522_DELETED = ISSUE_522_CHANGES.filter(
  c => c.change.actions.join(',') === 'delete',
).map(c => c.address);
const ISSUE_522_KEPT = ISSUE_522_ADDRESSES.filter(
  address => !ISSUE_522_DELETED.includes(address),
);

/** The order of #14: most consequential change first. */
const PRIORITY = [
  'REPLACE',
  'DELETE',
  'CREATE',
  'UPDATE',
  'IMPORT',
  'FORGET',
  'READ',
  'NO_OP',
];

/** A managed resource change of a synthesized plan. */
function resourceChange(
  address: string,
  actions: string[],
  extra: Record<string, unknown> = {},
  change: Record<string, unknown> = {},
) {
  const [type, name] = address.split('.');
  const creates = actions[0] === 'create';
  const deletes = actions.length === 1 && actions[0] === 'delete';
  return {
    address,
    mode: 'managed',
    type,
    name: name.replace(/\[.*$/, ''),
    provider_name: 'registry.terraform.io/hashicorp/null',
    ...extra,
    change: {
      actions,
      before: creates ? null : { id: address },
      after: deletes ? null : { id: address },
      ...change,
    },
  };
}

/** A plan that deletes every given address. */
function deletePlan(deleted: string[]): Plan {
  return {
    format_version: '1.2',
    resource_changes: deleted.map(address =>
      resourceChange(address, ['delete']),
    ),
  };
}

/** `/path?…` with repeated parameters. */
function withQuery(path: string, params: [string, string | number][]): string {
  const query = new URLSearchParams(
    params.map(([name, value]) => [name, String(value)]),
  );
  return `${path}?${query.toString()}`;
}

/** The validation issues of a 400 VALIDATION_FAILED answer. */
function validationItems(response: request.Response): string[] {
  expect(response.status).toBe(400);
  const body = errorBodySchema.parse(response.body);
  expect(body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
  expect(body.requestId).toEqual(expect.any(String));
  return body.details?.[0].items ?? [];
}

/** The code of an ErrorBody answer, which must have `status`. */
function errorCodeOf(response: request.Response, status: number): string {
  expect(response.status).toBe(status);
  return errorBodySchema.parse(response.body).code;
}

function addresses(resources: IacResource[]): string[] {
  return resources.map(resource => resource.address);
}

function sorted(values: string[]): string[] {
  return [...values].sort();
}

/** An organization with a runner and a stack (plan → approval → apply). */
interface World {
  owner: TestOrganization;
  runnerKey: string;
  stack: Stack;
}

describe.each(databases.eachSupportedId())('IaC routes on %s', databaseId => {
  let api: InfraDeliveryTestClient;

  beforeAll(async () => {
    api = await startInfraDeliveryBackend(await databases.init(databaseId));
  });

  async function world(): Promise<World> {
    const owner = await api.signup();
    const runner = await createRunner(api, owner);
    const stack = await createStack(api, owner);
    return { owner, runnerKey: runner.key, stack };
  }

  /** Another organization, which must see nothing of `w`. */
  async function stranger(): Promise<TestOrganization> {
    return api.signup();
  }

  /**
   * Triggers a pipeline of the stack and completes its plan step with `planJson`; the run then
   * waits for approval.
   */
  async function plan(
    w: World,
    planJson: Plan,
    pipelineId = w.stack.changePipelineId,
  ): Promise<{ run: PipelineRun; planStep: StepExecution }> {
    const run = await trigger(api, w.owner, pipelineId);
    const claimed = await claim(api, w.runnerKey);
    expect(claimed.pipelineRun.id).toBe(run.id);
    expect(claimed.stepExecution.type).toBe('iac.plan');
    const planStep = await complete(api, w.runnerKey, claimed, {
      status: 'SUCCEEDED',
      planJson,
      planFilename: 'infra-delivery.tfplan',
    });
    expect(planStep.status).toBe('SUCCEEDED');
    return { run, planStep };
  }

  /** Approves the run and completes its apply (or destroy) step with `planJson`. */
  async function approveAndApply(
    w: World,
    runId: string,
    planJson: Plan,
    outputs?: Record<string, unknown>,
  ): Promise<StepExecution> {
    await act(api, w.owner, runId, 'approve');
    const claimed = await claim(api, w.runnerKey);
    expect(claimed.pipelineRun.id).toBe(runId);
    expect(['iac.apply', 'iac.destroy']).toContain(claimed.stepExecution.type);
    const step = await complete(api, w.runnerKey, claimed, {
      status: 'SUCCEEDED',
      planJson,
      ...(outputs ? { outputs } : {}),
    });
    expect((await getRun(api, w.owner, runId)).status).toBe('SUCCEEDED');
    return step;
  }

  /** A whole change run: plan, approval and apply, all with `planJson`. */
  async function change(
    w: World,
    planJson: Plan,
    outputs?: Record<string, unknown>,
  ) {
    const { run, planStep } = await plan(w, planJson);
    const applyStep = await approveAndApply(w, run.id, planJson, outputs);
    return { run, planStep, applyStep };
  }

  async function summaries(
    caller: { token: string },
    params: [string, string | number][],
  ): Promise<{ data: IacExecutionSummary[]; meta: any }> {
    const response = await api.get(
      withQuery('/iac-execution-summaries', params),
      caller.token,
    );
    expectStatus(response, 200);
    return {
      data: response.body.data.map((s: unknown) =>
        iacExecutionSummarySchema.parse(s),
      ),
      meta: response.body.meta,
    };
  }

  async function resources(
    caller: { token: string },
    params: [string, string | number][],
  ): Promise<{ data: IacResource[]; meta: any }> {
    const response = await api.get(
      withQuery('/iac-resources', params),
      caller.token,
    );
    expectStatus(response, 200);
    return {
      data: response.body.data.map((r: unknown) => iacResourceSchema.parse(r)),
      meta: response.body.meta,
    };
  }

  async function stackState(w: World): Promise<IacResource[]> {
    return api.walk(
      withQuery('/iac-resources', [['stackId', w.stack.id]]),
      w.owner.token,
      500,
    );
  }

  async function getStack(w: World): Promise<Stack> {
    const response = await api.get(`/stacks/${w.stack.id}`, w.owner.token);
    expectStatus(response, 200);
    return stackSchema.parse(response.body.data);
  }

  async function resourceCounts(
    caller: { token: string },
    stackIds: string[],
  ): Promise<{ stackId: string; count: number }[]> {
    const response = await api.get(
      withQuery(
        '/stacks/resource-count',
        stackIds.map(id => ['stackId', id]),
      ),
      caller.token,
    );
    expectStatus(response, 200);
    return response.body.data.counts;
  }

  describe('GET /iac-execution-summaries (#10)', () => {
    it('summarizes a plan exactly as Terraform counts it, by run, pipeline, stack and step', async () => {
      const w = await world();
      const { run, planStep } = await plan(w, ISSUE_522);

      const expected = {
        id: expect.any(String),
        organizationId: w.owner.organizationId,
        pipelineId: w.stack.changePipelineId,
        pipelineRunId: run.id,
        stepExecutionId: planStep.id,
        stackId: w.stack.id,
        runType: 'PLAN',
        addCount: 5,
        changeCount: 1,
        destroyCount: 2,
        importCount: 0,
        readCount: 0,
        replaceCount: 0,
        unchangedCount: 7,
        applyable: true,
        // The plan file the runner named when it completed the step.
        planFilename: 'infra-delivery.tfplan',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      };
      const byRun = await summaries(w.owner, [['pipelineRunId', run.id]]);
      expect(byRun.data).toEqual([expected]);
      expect(byRun.meta).toEqual({
        limit: 50,
        totalCount: 1,
      });
      const summary = byRun.data[0];

      for (const filter of [
        [['pipelineId', w.stack.changePipelineId]],
        [['stackId', w.stack.id]],
        [
          ['pipelineRunId', run.id],
          ['stepExecutionId', planStep.id],
        ],
        [
          ['stackId', w.stack.id],
          ['stepExecutionId', planStep.id],
        ],
      ] as [string, string][][]) {
        expect((await summaries(w.owner, filter)).data).toEqual([summary]);
      }

      // Filters combine: another pipeline or step of the same stack matches nothing.
      expect(
        (
          await summaries(w.owner, [
            ['stackId', w.stack.id],
            ['pipelineId', w.stack.destroyPipelineId],
          ])
        ).data,
      ).toEqual([]);
      expect(
        (
          await summaries(w.owner, [
            ['pipelineRunId', run.id],
            ['stepExecutionId', randomUUID()],
          ])
        ).data,
      ).toEqual([]);
    });

    it('lists newest first across runs, one page at a time', async () => {
      const w = await world();
      // A rejected run releases the stack for the next one.
      const first = await plan(w, ISSUE_522);
      await act(api, w.owner, first.run.id, 'reject');
      const second = await plan(w, ISSUE_522);
      await act(api, w.owner, second.run.id, 'reject');
      const third = await plan(w, deletePlan(['null_resource.a']));

      const newestFirst = [third.run.id, second.run.id, first.run.id];
      for (const filter of [
        ['pipelineId', w.stack.changePipelineId],
        ['stackId', w.stack.id],
      ] as [string, string][]) {
        const all = await summaries(w.owner, [filter]);
        expect(all.data.map(s => s.pipelineRunId)).toEqual(newestFirst);
        expect(all.meta.totalCount).toBe(3);

        const walked: IacExecutionSummary[] = await api.walk(
          withQuery('/iac-execution-summaries', [filter]),
          w.owner.token,
          1,
        );
        expect(walked.map(s => s.id)).toEqual(all.data.map(s => s.id));

        const page = await summaries(w.owner, [filter, ['limit', 2]]);
        expect(page.data.map(s => s.pipelineRunId)).toEqual(
          newestFirst.slice(0, 2),
        );
        expect(page.meta).toEqual({
          limit: 2,
          nextCursor: expect.any(String),
          totalCount: 3,
        });
      }
    });

    it('needs pipelineId, pipelineRunId or stackId (400)', async () => {
      const w = await world();
      const { planStep } = await plan(w, ISSUE_522);

      const none = await api.get('/iac-execution-summaries', w.owner.token);
      expect(validationItems(none).join('\n')).toContain(
        'pipelineId, pipelineRunId or stackId',
      );
      const stepOnly = await api.get(
        withQuery('/iac-execution-summaries', [
          ['stepExecutionId', planStep.id],
        ]),
        w.owner.token,
      );
      expect(validationItems(stepOnly).join('\n')).toContain(
        'pipelineId, pipelineRunId or stackId',
      );
    });

    it('has no summary for a run whose plan step failed', async () => {
      const w = await world();
      const run = await trigger(api, w.owner, w.stack.changePipelineId);
      const claimed = await claim(api, w.runnerKey);
      const failed = await complete(api, w.runnerKey, claimed, {
        status: 'FAILED',
        planJson: ISSUE_522,
        error: { code: 'Runner:Terraform:FAILED', message: 'plan failed' },
      });
      expect(failed.status).toBe('FAILED');
      expect((await getRun(api, w.owner, run.id)).status).toBe('FAILED');

      expect(
        (await summaries(w.owner, [['pipelineRunId', run.id]])).data,
      ).toEqual([]);
      expect(
        (await summaries(w.owner, [['stackId', w.stack.id]])).data,
      ).toEqual([]);
      const listed = await resources(w.owner, [['pipelineRunId', run.id]]);
      expect(listed.data).toEqual([]);
      expect(listed.meta.totalCount).toBe(0);
    });

    it('shows another organization nothing', async () => {
      const w = await world();
      const { run, planStep } = await plan(w, ISSUE_522);
      const other = await stranger();

      for (const filter of [
        [['pipelineRunId', run.id]],
        [['pipelineId', w.stack.changePipelineId]],
        [['stackId', w.stack.id]],
        [
          ['pipelineRunId', run.id],
          ['stepExecutionId', planStep.id],
        ],
      ] as [string, string][][]) {
        const seen = await summaries(other, filter);
        expect(seen.data).toEqual([]);
        expect(seen.meta.totalCount).toBe(0);
      }
    });
  });

  describe('GET /iac-resources (#14) for a run', () => {
    it('orders a run’s resources by change-type priority and pages them without gaps', async () => {
      const w = await world();
      const { run, planStep } = await plan(w, ISSUE_522);

      const all = await resources(w.owner, [
        ['pipelineRunId', run.id],
        ['limit', 500],
      ]);
      expect(all.meta).toEqual({
        limit: 500,
        totalCount: 15,
      });
      expect(sorted(addresses(all.data))).toEqual(sorted(ISSUE_522_ADDRESSES));
      expect(all.data.map(r => r.changeKind)).toEqual([
        ...Array(2).fill('DELETE'),
        ...Array(5).fill('CREATE'),
        'UPDATE',
        ...Array(7).fill('NO_OP'),
      ]);
      for (const resource of all.data) {
        expect(resource).toMatchObject({
          organizationId: w.owner.organizationId,
          stackId: w.stack.id,
          pipelineRunId: run.id,
          stepExecutionId: planStep.id,
          runType: 'PLAN',
          mode: 'managed',
          isInCurrentState: false,
          tainted: false,
          provider: 'registry.terraform.io/hashicorp/aws',
        });
      }
      expect(
        all.data.find(
          r =>
            r.address ===
            'aws_cloudwatch_event_rule.Metricos_custom_alert_schedule_frequent[0]',
        ),
      ).toMatchObject({
        changeKind: 'DELETE',
        resourceType: 'aws_cloudwatch_event_rule',
        resourceName: 'Metricos_custom_alert_schedule_frequent',
        indexKey: '0',
        vendorData: { before: expect.any(Object), after: null },
      });

      // Pages of 4: 15 resources in 4 pages, the same order, no duplicates, no gaps.
      const pages: IacResource[][] = [];
      let cursor: string | null = null;
      do {
        const page: { data: IacResource[]; meta: any } = await resources(
          w.owner,
          [
            ['pipelineRunId', run.id],
            ['limit', 4],
            ...(cursor ? ([['cursor', cursor]] as [string, string][]) : []),
          ],
        );
        expect(page.meta.totalCount).toBe(15);
        pages.push(page.data);
        cursor = page.meta.nextCursor;
      } while (cursor && pages.length < 10);
      expect(pages.map(p => p.length)).toEqual([4, 4, 4, 3]);
      expect(pages.flat().map(r => r.id)).toEqual(all.data.map(r => r.id));
      expect(new Set(pages.flat().map(r => r.id)).size).toBe(15);
    });

    it('puts every change kind in priority order: replace, delete, create, update, import, forget, read, no-op', async () => {
      const w = await world();
      const everyKind: Plan = {
        format_version: '1.2',
        resource_changes: [
          resourceChange('null_resource.unchanged', ['no-op']),
          {
            address: 'data.http.example',
            mode: 'data',
            type: 'http',
            name: 'example',
            change: { actions: ['read'], before: null, after: { url: 'u' } },
          },
          resourceChange('null_resource.forgotten', ['forget']),
          resourceChange(
            'null_resource.imported',
            ['no-op'],
            {},
            { importing: { id: 'i-123' } },
          ),
          resourceChange('null_resource.updated', ['update']),
          resourceChange('null_resource.created', ['create']),
          resourceChange('null_resource.deleted', ['delete']),
          resourceChange('null_resource.replaced', ['delete', 'create'], {
            action_reason: 'replace_because_tainted',
          }),
        ],
      };
      const { run } = await plan(w, everyKind);

      const all = await api.walk(
        withQuery('/iac-resources', [['pipelineRunId', run.id]]),
        w.owner.token,
        3,
      );
      expect(all.map(r => r.changeKind)).toEqual(PRIORITY);
      expect(addresses(all)).toEqual([
        'null_resource.replaced',
        'null_resource.deleted',
        'null_resource.created',
        'null_resource.updated',
        'null_resource.imported',
        'null_resource.forgotten',
        'data.http.example',
        'null_resource.unchanged',
      ]);
      expect(all[0].tainted).toBe(true);
      expect(all[6].mode).toBe('data');

      const [summary] = (await summaries(w.owner, [['pipelineRunId', run.id]]))
        .data;
      // Terraform: "Plan: 1 to import, 2 to add, 1 to change, 2 to destroy."
      expect(summary).toMatchObject({
        importCount: 1,
        addCount: 2,
        changeCount: 1,
        destroyCount: 2,
        replaceCount: 1,
        readCount: 1,
        applyable: true,
      });
    });

    it('narrows to one step or one run type', async () => {
      const w = await world();
      const { run, planStep, applyStep } = await change(w, ISSUE_522, {
        url: 'x',
      });

      const whole = await resources(w.owner, [['pipelineRunId', run.id]]);
      expect(whole.meta.totalCount).toBe(30);
      // Priority first, whichever step reported the resource.
      const priorities = whole.data.map(r => PRIORITY.indexOf(r.changeKind));
      expect(priorities).toEqual([...priorities].sort((a, b) => a - b));

      for (const [params, step, runType] of [
        [[['stepExecutionId', planStep.id]], planStep, 'PLAN'],
        [[['runType', 'PLAN']], planStep, 'PLAN'],
        [[['stepExecutionId', applyStep.id]], applyStep, 'APPLY'],
        [[['runType', 'APPLY']], applyStep, 'APPLY'],
        [
          [
            ['stepExecutionId', applyStep.id],
            ['runType', 'APPLY'],
          ],
          applyStep,
          'APPLY',
        ],
      ] as [[string, string][], StepExecution, string][]) {
        const narrowed = await resources(w.owner, [
          ['pipelineRunId', run.id],
          ['limit', 500],
          ...params,
        ]);
        expect(narrowed.meta.totalCount).toBe(15);
        expect(sorted(addresses(narrowed.data))).toEqual(
          sorted(ISSUE_522_ADDRESSES),
        );
        for (const resource of narrowed.data) {
          expect(resource.stepExecutionId).toBe(step.id);
          expect(resource.runType).toBe(runType);
        }
      }

      const none = await resources(w.owner, [
        ['pipelineRunId', run.id],
        ['stepExecutionId', planStep.id],
        ['runType', 'APPLY'],
      ]);
      expect(none.data).toEqual([]);
      expect(
        (
          await resources(w.owner, [
            ['pipelineRunId', run.id],
            ['runType', 'DESTROY'],
          ])
        ).meta.totalCount,
      ).toBe(0);

      // Only the apply's rows of resources that were not deleted are the stack's state.
      const applied = await resources(w.owner, [
        ['pipelineRunId', run.id],
        ['runType', 'APPLY'],
        ['limit', 500],
      ]);
      for (const resource of applied.data) {
        expect(resource.isInCurrentState).toBe(
          !ISSUE_522_DELETED.includes(resource.address),
        );
      }
      const planned = await resources(w.owner, [
        ['pipelineRunId', run.id],
        ['runType', 'PLAN'],
        ['limit', 500],
      ]);
      expect(planned.data.every(r => !r.isInCurrentState)).toBe(true);
    });

    it('refuses queries that do not name exactly one of a run or a stack (400)', async () => {
      const w = await world();
      const { run, planStep } = await plan(w, ISSUE_522);

      const cases: [string, [string, string][]][] = [
        ['exactly one of pipelineRunId or stackId', []],
        [
          'exactly one of pipelineRunId or stackId',
          [['stepExecutionId', planStep.id]],
        ],
        [
          'exactly one of pipelineRunId or stackId',
          [
            ['pipelineRunId', run.id],
            ['stackId', w.stack.id],
          ],
        ],
        [
          'valid only with pipelineRunId',
          [
            ['stackId', w.stack.id],
            ['stepExecutionId', planStep.id],
          ],
        ],
        [
          'valid only with pipelineRunId',
          [
            ['stackId', w.stack.id],
            ['runType', 'PLAN'],
          ],
        ],
        [
          'runType',
          [
            ['pipelineRunId', run.id],
            ['runType', 'BOGUS'],
          ],
        ],
      ];
      for (const [message, params] of cases) {
        const response = await api.get(
          withQuery('/iac-resources', params),
          w.owner.token,
        );
        expect(validationItems(response).join('\n')).toContain(message);
      }
    });

    it('answers 404 for another organization’s run or stack', async () => {
      const w = await world();
      const { run } = await plan(w, ISSUE_522);
      const other = await stranger();

      expect(
        errorCodeOf(
          await api.get(
            withQuery('/iac-resources', [['pipelineRunId', run.id]]),
            other.token,
          ),
          404,
        ),
      ).toBe('InfraDelivery:PipelineRun:NOT_FOUND');
      expect(
        errorCodeOf(
          await api.get(
            withQuery('/iac-resources', [['stackId', w.stack.id]]),
            other.token,
          ),
          404,
        ),
      ).toBe('InfraDelivery:Stack:NOT_FOUND');
      expect(
        errorCodeOf(
          await api.get(
            withQuery('/iac-resources', [['pipelineRunId', randomUUID()]]),
            w.owner.token,
          ),
          404,
        ),
      ).toBe('InfraDelivery:PipelineRun:NOT_FOUND');
      expect(
        errorCodeOf(
          await api.get(
            withQuery('/iac-resources', [['stackId', randomUUID()]]),
            w.owner.token,
          ),
          404,
        ),
      ).toBe('InfraDelivery:Stack:NOT_FOUND');
    });

    it('refuses a cursor made for another query (400)', async () => {
      const w = await world();
      const first = await plan(w, ISSUE_522);
      const page = await resources(w.owner, [
        ['pipelineRunId', first.run.id],
        ['limit', 4],
      ]);
      const response = await api.get(
        withQuery('/iac-resources', [
          ['pipelineRunId', first.run.id],
          ['runType', 'PLAN'],
          ['limit', 4],
          ['cursor', page.meta.nextCursor],
        ]),
        w.owner.token,
      );
      expect(response.status).toBe(400);
      expect(errorBodySchema.parse(response.body).code).toBe(
        'InfraDelivery:Request:INVALID_CURSOR',
      );
    });
  });

  describe('GET /iac-resources (#14) for a stack: its current state', () => {
    it('holds the managed resources an apply did not delete, and records outputs', async () => {
      const w = await world();
      expect(await stackState(w)).toEqual([]);
      const before = await getStack(w);
      expect(before.firstAppliedAt).toBeUndefined();

      const { applyStep } = await change(w, ISSUE_522, { url: 'x' });

      const state = await stackState(w);
      expect(state).toHaveLength(13);
      expect(sorted(addresses(state))).toEqual(sorted(ISSUE_522_KEPT));
      for (const deleted of ISSUE_522_DELETED) {
        expect(addresses(state)).not.toContain(deleted);
      }
      for (const resource of state) {
        expect(iacResourceSchema.parse(resource)).toMatchObject({
          isInCurrentState: true,
          stackId: w.stack.id,
          stepExecutionId: applyStep.id,
          runType: 'APPLY',
        });
      }
      const listed = await resources(w.owner, [['stackId', w.stack.id]]);
      expect(listed.meta.totalCount).toBe(13);

      // Paged by address without gaps.
      const walked = await api.walk(
        withQuery('/iac-resources', [['stackId', w.stack.id]]),
        w.owner.token,
        4,
      );
      expect(addresses(walked)).toEqual(addresses(state));

      const stack = await getStack(w);
      expect(stack.output).toEqual({ url: 'x' });
      expect(stack.firstAppliedAt).toEqual(expect.any(String));

      const [applySummary] = (
        await summaries(w.owner, [
          ['stackId', w.stack.id],
          ['stepExecutionId', applyStep.id],
        ])
      ).data;
      expect(applySummary).toMatchObject({
        runType: 'APPLY',
        addCount: 5,
        changeCount: 1,
        destroyCount: 2,
        applyable: false,
        output: { url: 'x' },
      });
    });

    it('drops an address that a later apply deletes, and keeps the first apply time', async () => {
      const w = await world();
      await change(w, ISSUE_522, { url: 'x' });
      const firstAppliedAt = (await getStack(w)).firstAppliedAt;
      const gone = 'aws_lambda_function.lambda';
      expect(ISSUE_522_KEPT).toContain(gone);

      const second = await change(w, deletePlan([gone]), { url: 'y' });

      const state = await stackState(w);
      expect(sorted(addresses(state))).toEqual(
        sorted(ISSUE_522_KEPT.filter(address => address !== gone)),
      );
      // The untouched resources still point at the first apply.
      expect(state.every(r => r.stepExecutionId !== second.applyStep.id)).toBe(
        true,
      );
      const stack = await getStack(w);
      expect(stack.firstAppliedAt).toBe(firstAppliedAt);
      expect(stack.output).toEqual({ url: 'y' });
      expect(await resourceCounts(w.owner, [w.stack.id])).toEqual([
        { stackId: w.stack.id, count: 12 },
      ]);
    });

    it('pages a state whose addresses are long (the cursor carries the address)', async () => {
      const w = await world();
      // for_each keys can be long strings: addresses of up to 1,000 characters.
      const longAddress = (i: number) =>
        `module.policies["${'p'.repeat(
          450,
        )}"].aws_iam_policy.this["${i}-${'q'.repeat(480)}"]`;
      const planned = [1, 2, 3].map(longAddress);
      expect(planned[0].length).toBeGreaterThan(950);
      await change(w, {
        resource_changes: planned.map(address =>
          resourceChange(address, ['create'], {
            module_address: `module.policies["${'p'.repeat(450)}"]`,
            type: 'aws_iam_policy',
            name: 'this',
          }),
        ),
      });

      const walked = await api.walk(
        withQuery('/iac-resources', [['stackId', w.stack.id]]),
        w.owner.token,
        1,
      );
      expect(sorted(addresses(walked))).toEqual(planned);
    });

    it('follows moved resources and keeps data sources and forgotten resources out', async () => {
      const w = await world();
      await change(w, {
        resource_changes: [
          resourceChange('null_resource.old', ['create']),
          resourceChange('null_resource.kept', ['create']),
          resourceChange('null_resource.forgotten', ['create']),
          {
            address: 'data.http.example',
            mode: 'data',
            type: 'http',
            name: 'example',
            change: { actions: ['read'], before: null, after: { url: 'u' } },
          },
        ],
      });
      expect(sorted(addresses(await stackState(w)))).toEqual([
        'null_resource.forgotten',
        'null_resource.kept',
        'null_resource.old',
      ]);

      const second = await change(w, {
        resource_changes: [
          resourceChange('null_resource.new', ['no-op'], {
            previous_address: 'null_resource.old',
          }),
          resourceChange('null_resource.kept', ['update']),
          resourceChange('null_resource.forgotten', ['forget']),
        ],
      });
      const state = await stackState(w);
      expect(sorted(addresses(state))).toEqual([
        'null_resource.kept',
        'null_resource.new',
      ]);
      expect(state.find(r => r.address === 'null_resource.new')).toMatchObject({
        previousAddress: 'null_resource.old',
        stepExecutionId: second.applyStep.id,
      });
    });
  });

  describe('GET /pipeline-step-executions/{id}/iac-resources (#18)', () => {
    it('lists one step’s resources by change-type priority', async () => {
      const w = await world();
      const { planStep, applyStep } = await change(w, ISSUE_522, { url: 'x' });

      for (const [step, runType] of [
        [planStep, 'PLAN'],
        [applyStep, 'APPLY'],
      ] as [StepExecution, string][]) {
        const listed = await api.get(
          `/pipeline-step-executions/${step.id}/iac-resources?limit=500`,
          w.owner.token,
        );
        expectStatus(listed, 200);
        expect(listed.body.meta.totalCount).toBe(15);
        const items: IacResource[] = listed.body.data.map((r: unknown) =>
          iacResourceSchema.parse(r),
        );
        expect(sorted(addresses(items))).toEqual(sorted(ISSUE_522_ADDRESSES));
        expect(items.every(r => r.stepExecutionId === step.id)).toBe(true);
        expect(items.every(r => r.runType === runType)).toBe(true);
        const priorities = items.map(r => PRIORITY.indexOf(r.changeKind));
        expect(priorities).toEqual([...priorities].sort((a, b) => a - b));

        const walked = await api.walk(
          `/pipeline-step-executions/${step.id}/iac-resources`,
          w.owner.token,
          4,
        );
        expect(walked.map(r => r.id)).toEqual(items.map(r => r.id));
      }
    });

    it('answers 404 for another organization’s step', async () => {
      const w = await world();
      const { planStep } = await plan(w, ISSUE_522);
      const other = await stranger();
      expect(
        errorCodeOf(
          await api.get(
            `/pipeline-step-executions/${planStep.id}/iac-resources`,
            other.token,
          ),
          404,
        ),
      ).toBe('InfraDelivery:StepExecution:NOT_FOUND');
      expect(
        errorCodeOf(
          await api.get(
            `/pipeline-step-executions/${randomUUID()}/iac-resources`,
            w.owner.token,
          ),
          404,
        ),
      ).toBe('InfraDelivery:StepExecution:NOT_FOUND');
    });
  });

  describe('GET /stacks/resource-count (#24)', () => {
    it('counts only stacks with resources in their state', async () => {
      const w = await world();
      await change(w, ISSUE_522, { url: 'x' });
      const fresh = await createStack(api, w.owner);
      const other = await world();
      await change(other, {
        resource_changes: [resourceChange('null_resource.theirs', ['create'])],
      });

      expect(
        await resourceCounts(w.owner, [w.stack.id, fresh.id, w.stack.id]),
      ).toEqual([{ stackId: w.stack.id, count: 13 }]);
      expect(await resourceCounts(w.owner, [fresh.id])).toEqual([]);
      // Another organization's stack is not counted for this one.
      expect(
        await resourceCounts(w.owner, [w.stack.id, other.stack.id]),
      ).toEqual([{ stackId: w.stack.id, count: 13 }]);
      expect(await resourceCounts(other.owner, [w.stack.id])).toEqual([]);
    });

    it('takes 1 to 200 stack ids (400 otherwise)', async () => {
      const w = await world();
      const many = Array.from({ length: 200 }, () => randomUUID());
      expect(await resourceCounts(w.owner, many)).toEqual([]);
      await change(w, ISSUE_522, { url: 'x' });
      // A long list (one JSON array on SQLite) finds the stack among 199 unknown ids.
      expect(
        await resourceCounts(w.owner, [...many.slice(1), w.stack.id]),
      ).toEqual([{ stackId: w.stack.id, count: 13 }]);

      const tooMany = await api.get(
        withQuery(
          '/stacks/resource-count',
          [...many, randomUUID()].map(id => ['stackId', id]),
        ),
        w.owner.token,
      );
      expect(validationItems(tooMany).join('\n')).toContain('stackId');

      const none = await api.get('/stacks/resource-count', w.owner.token);
      expect(validationItems(none).join('\n')).toContain('stackId');
    });
  });

  describe("a run's change summary", () => {
    /** The fixtures' Plan lines (their README): add, change, destroy, import. */
    const FIXTURE_COUNTS: [string, number, number, number, number][] = [
      ['terraform-compliance__test_issue-294.plan.json', 18, 0, 0, 0],
      ['terraform-compliance__test_issue-567.plan.json', 0, 6, 0, 0],
      ['terraform-compliance__test_issue_522.plan.json', 5, 1, 2, 0],
      ['terraform-json__action_reason.plan.json', 1, 0, 1, 0],
      ['terraform-json__basic.plan.json', 7, 0, 0, 0],
      ['terraform-json__config_resource_depends_on.plan.json', 1, 0, 1, 0],
      ['terraform-json__identity.plan.json', 0, 1, 0, 1],
      // A move is applied although it adds, changes and destroys nothing.
      ['terraform-json__moved_block.plan.json', 0, 0, 0, 0],
    ];

    /** The run as the three lists of #13 give it: by pipeline, newest per entity, by id. */
    async function listed(w: World, runId: string): Promise<PipelineRun[]> {
      const queries: [string, string | number][][] = [
        [['pipelineId', w.stack.changePipelineId]],
        [
          ['attachedEntityId', w.stack.id],
          ['latestPerEntity', 1],
        ],
        [['id', runId]],
      ];
      const runs: PipelineRun[] = [];
      for (const query of queries) {
        const response = await api.get(
          withQuery('/pipeline-runs', query),
          w.owner.token,
        );
        expectStatus(response, 200);
        runs.push(
          ...response.body.data.filter((run: PipelineRun) => run.id === runId),
        );
      }
      return runs;
    }

    it.each(FIXTURE_COUNTS)(
      'is recorded when the plan %s is ingested, and the lists carry it',
      async (file, add, changes, destroy, imports) => {
        const w = await world();
        const queued = await trigger(api, w.owner, w.stack.changePipelineId);
        // Nothing is planned yet: no summary.
        expect((await getRun(api, w.owner, queued.id)).changeSummary).toBe(
          undefined,
        );
        await claim(api, w.runnerKey).then(claimed =>
          complete(api, w.runnerKey, claimed, {
            status: 'SUCCEEDED',
            planJson: loadPlan(file),
          }),
        );
        const expected = {
          add,
          change: changes,
          destroy,
          import: imports,
          noChanges: false,
        };
        const run = await getRun(api, w.owner, queued.id);
        expect(run.status).toBe('WAITING_FOR_APPROVAL');
        expect(run.changeSummary).toEqual(expected);
        const inLists = await listed(w, run.id);
        expect(inLists).toHaveLength(3);
        for (const listedRun of inLists) {
          expect(listedRun.changeSummary).toEqual(expected);
        }
      },
    );

    it('says "no changes" of a plan with nothing to apply, as its execution summary does', async () => {
      const w = await world();
      const { run } = await plan(w, {
        format_version: '1.2',
        applyable: false,
        resource_changes: [resourceChange('terraform_data.a', ['no-op'])],
      });
      const expected = {
        add: 0,
        change: 0,
        destroy: 0,
        import: 0,
        noChanges: true,
      };
      expect((await getRun(api, w.owner, run.id)).changeSummary).toEqual(
        expected,
      );
      for (const listedRun of await listed(w, run.id)) {
        expect(listedRun.changeSummary).toEqual(expected);
      }
    });

    it("keeps the plan's summary once the apply has run", async () => {
      const w = await world();
      const { run } = await plan(w, ISSUE_522);
      await approveAndApply(w, run.id, ISSUE_522);
      expect((await getRun(api, w.owner, run.id)).changeSummary).toEqual({
        add: 5,
        change: 1,
        destroy: 2,
        import: 0,
        noChanges: false,
      });
    });
  });

  describe('a plan with nothing to apply', () => {
    const unchanged: Plan = {
      format_version: '1.2',
      applyable: false,
      resource_changes: [resourceChange('terraform_data.a', ['no-op'])],
      output_changes: { region: { actions: ['no-op'], after: 'eu-west-1' } },
    };

    it('ends the run with its plan: nobody is asked to approve, nothing is applied', async () => {
      const w = await world();
      const { run } = await plan(w, unchanged);

      expect((await getRun(api, w.owner, run.id)).status).toBe('SUCCEEDED');
      expect(
        (await getSteps(api, w.owner, run.id)).map(step => [
          step.type,
          step.status,
        ]),
      ).toEqual([
        ['iac.plan', 'SUCCEEDED'],
        ['approval', 'SKIPPED'],
        ['iac.apply', 'SKIPPED'],
      ]);
      const [summary] = (await summaries(w.owner, [['pipelineRunId', run.id]]))
        .data;
      expect(summary).toMatchObject({ runType: 'PLAN', applyable: false });
      // The runner has nothing more to do, and the stack takes its next run at once.
      const next = await api.post(
        '/runner/claims',
        { data: { runnerId: 'runner-1' } },
        w.runnerKey,
      );
      expect(next.status).toBe(204);
      const second = await trigger(api, w.owner, w.stack.changePipelineId);
      expect(second.status).not.toBe('QUEUED');
    });

    it('ends a destroy run of a stack that has no resources left', async () => {
      const w = await world();
      const { run } = await plan(
        w,
        { format_version: '1.2', resource_changes: [] },
        w.stack.destroyPipelineId,
      );
      expect((await getRun(api, w.owner, run.id)).status).toBe('SUCCEEDED');
      expect(
        (await getSteps(api, w.owner, run.id)).map(step => step.status),
      ).toEqual(['SUCCEEDED', 'SKIPPED', 'SKIPPED']);
    });

    it('still waits for approval when only an output changes', async () => {
      const w = await world();
      const { run } = await plan(w, {
        ...unchanged,
        applyable: undefined,
        output_changes: {
          region: { actions: ['update'], after: 'eu-central-1' },
        },
      });
      expect((await getRun(api, w.owner, run.id)).status).toBe(
        'WAITING_FOR_APPROVAL',
      );
    });
  });

  describe('destroy', () => {
    it('empties the stack’s state and #24 then omits the stack', async () => {
      const w = await world();
      await change(w, ISSUE_522, { url: 'x' });
      expect(await resourceCounts(w.owner, [w.stack.id])).toEqual([
        { stackId: w.stack.id, count: 13 },
      ]);

      const destroyPlan = deletePlan(ISSUE_522_KEPT);
      const { run, planStep } = await plan(
        w,
        destroyPlan,
        w.stack.destroyPipelineId,
      );
      expect(planStep.config).toEqual({ destroy: true });
      const [planSummary] = (
        await summaries(w.owner, [['pipelineRunId', run.id]])
      ).data;
      expect(planSummary).toMatchObject({
        pipelineId: w.stack.destroyPipelineId,
        runType: 'PLAN',
        addCount: 0,
        changeCount: 0,
        destroyCount: 13,
        applyable: true,
      });
      // Planning changes nothing yet.
      expect(await stackState(w)).toHaveLength(13);

      const destroyStep = await approveAndApply(w, run.id, destroyPlan);
      expect(destroyStep.type).toBe('iac.destroy');

      expect(await stackState(w)).toEqual([]);
      expect(
        (await resources(w.owner, [['stackId', w.stack.id]])).meta.totalCount,
      ).toBe(0);
      expect(await resourceCounts(w.owner, [w.stack.id])).toEqual([]);

      const all = await summaries(w.owner, [['pipelineRunId', run.id]]);
      expect(all.data.map(s => s.runType)).toEqual(['DESTROY', 'PLAN']);
      expect(all.data[0]).toMatchObject({
        stepExecutionId: destroyStep.id,
        destroyCount: 13,
        applyable: false,
      });
      const destroyed = await resources(w.owner, [
        ['pipelineRunId', run.id],
        ['runType', 'DESTROY'],
        ['limit', 500],
      ]);
      expect(destroyed.meta.totalCount).toBe(13);
      expect(destroyed.data.every(r => !r.isInCurrentState)).toBe(true);
      expect(Object.keys((await getStack(w)).output ?? {})).toEqual([]);
    });
  });

  describe('sensitive values', () => {
    const SECRET = 'hunter2-never-shown';

    const sensitivePlan: Plan = {
      format_version: '1.2',
      resource_changes: [
        resourceChange(
          'aws_db_instance.main',
          ['update'],
          {},
          {
            before: {
              identifier: 'main',
              password: `${SECRET}-old`,
              users: [{ name: 'app', token: `${SECRET}-token` }],
            },
            after: {
              identifier: 'main',
              password: SECRET,
              users: [{ name: 'app', token: `${SECRET}-token` }],
            },
            before_sensitive: { password: true, users: [{ token: true }] },
            after_sensitive: { password: true, users: [{ token: true }] },
          },
        ),
        resourceChange(
          'random_password.db',
          ['create'],
          {},
          {
            before: null,
            after: { length: 32, result: SECRET },
            after_sensitive: { result: true },
          },
        ),
        resourceChange(
          'aws_ssm_parameter.secret',
          ['create'],
          {},
          {
            before: null,
            after: { name: 'db', value: SECRET },
            after_sensitive: true,
          },
        ),
      ],
      output_changes: {
        db_password: {
          actions: ['create'],
          after: SECRET,
          after_sensitive: true,
        },
        endpoint: {
          actions: ['create'],
          after: 'db.example.com',
          after_sensitive: false,
        },
      },
      // Parts of a plan the service does not keep, which carry the secret too.
      prior_state: {
        values: { root_module: { resources: [{ values: { pw: SECRET } }] } },
      },
      variables: { db_password: { value: SECRET } },
    };

    it('redacts marked values, and the secret appears in no answer', async () => {
      const w = await world();
      const bodies: unknown[] = [];
      const record = (response: request.Response) => {
        expectStatus(response, 200);
        bodies.push(response.body);
        return response.body;
      };

      const run = await trigger(api, w.owner, w.stack.changePipelineId);
      const planClaim = await claim(api, w.runnerKey);
      bodies.push(
        await complete(api, w.runnerKey, planClaim, {
          status: 'SUCCEEDED',
          planJson: sensitivePlan,
        }),
      );
      await act(api, w.owner, run.id, 'approve');
      const applyClaim = await claim(api, w.runnerKey);
      bodies.push(
        await complete(api, w.runnerKey, applyClaim, {
          status: 'SUCCEEDED',
          planJson: sensitivePlan,
        }),
      );

      const byRun = record(
        await api.get(
          withQuery('/iac-resources', [['pipelineRunId', run.id]]),
          w.owner.token,
        ),
      );
      const planned = (byRun.data as IacResource[]).filter(
        r => r.runType === 'PLAN',
      );
      const byAddress = Object.fromEntries(planned.map(r => [r.address, r]));
      expect(byAddress['aws_db_instance.main'].vendorData).toEqual({
        before: {
          identifier: 'main',
          password: '(sensitive value)',
          users: [{ name: 'app', token: '(sensitive value)' }],
        },
        after: {
          identifier: 'main',
          password: '(sensitive value)',
          users: [{ name: 'app', token: '(sensitive value)' }],
        },
      });
      expect(byAddress['random_password.db'].vendorData).toEqual({
        before: null,
        after: { length: 32, result: '(sensitive value)' },
      });
      expect(byAddress['aws_ssm_parameter.secret'].vendorData).toEqual({
        before: null,
        after: '(sensitive value)',
      });

      const summariesBody = record(
        await api.get(
          withQuery('/iac-execution-summaries', [['pipelineRunId', run.id]]),
          w.owner.token,
        ),
      );
      const applySummary = (summariesBody.data as IacExecutionSummary[]).find(
        s => s.runType === 'APPLY',
      );
      // Without reported outputs, the apply's summary shows the plan's root outputs.
      expect(applySummary?.output).toEqual({
        db_password: '(sensitive value)',
        endpoint: 'db.example.com',
      });

      record(
        await api.get(
          withQuery('/iac-resources', [['stackId', w.stack.id]]),
          w.owner.token,
        ),
      );
      for (const step of [planClaim, applyClaim]) {
        record(
          await api.get(
            `/pipeline-step-executions/${step.stepExecution.id}/iac-resources`,
            w.owner.token,
          ),
        );
      }
      record(await api.get(`/stacks/${w.stack.id}`, w.owner.token));
      record(await api.get(`/pipeline-runs/${run.id}`, w.owner.token));
      record(
        await api.get(
          `/pipeline-runs/${run.id}/step-executions`,
          w.owner.token,
        ),
      );

      expect(bodies.length).toBeGreaterThan(8);
      for (const body of bodies) {
        expect(JSON.stringify(body)).not.toContain(SECRET);
      }
    });
  });

  describe('a report that is not a plan', () => {
    it('is refused (422) and the step stays RUNNING with nothing recorded', async () => {
      const w = await world();
      const run = await trigger(api, w.owner, w.stack.changePipelineId);
      const claimed = await claim(api, w.runnerKey);

      for (const planJson of [
        { resource_changes: 'nope' },
        { resource_changes: [{ address: 'a.b' }] },
        // An action the service does not know was counted as no change, and the plan
        // waited for an approval that would let through what nobody was shown.
        {
          resource_changes: [
            {
              address: 'a.b',
              type: 'a',
              name: 'b',
              change: { actions: ['explode'] },
            },
          ],
        },
      ]) {
        const refused = await api.post(
          `/runner/step-executions/${claimed.stepExecution.id}/complete`,
          {
            data: {
              leaseToken: claimed.leaseToken,
              status: 'SUCCEEDED',
              planJson,
            },
          },
          w.runnerKey,
        );
        expect(refused.status).toBe(422);
        const body = errorBodySchema.parse(refused.body);
        expect(body.code).toBe('InfraDelivery:Plan:UNREADABLE');
        expect(body.details?.[0].items?.length).toBeGreaterThan(0);
      }

      const steps = await api.get(
        `/pipeline-runs/${run.id}/step-executions`,
        w.owner.token,
      );
      expectStatus(steps, 200);
      expect(steps.body.data[0]).toMatchObject({
        id: claimed.stepExecution.id,
        status: 'RUNNING',
      });
      expect((await getRun(api, w.owner, run.id)).status).toBe('RUNNING');
      expect(
        (await summaries(w.owner, [['pipelineRunId', run.id]])).data,
      ).toEqual([]);
      expect(
        (await resources(w.owner, [['pipelineRunId', run.id]])).meta.totalCount,
      ).toBe(0);

      // The lease still holds: the runner can report a readable plan.
      const fixed = await complete(api, w.runnerKey, claimed, {
        status: 'SUCCEEDED',
        planJson: ISSUE_522,
      });
      expect(fixed.status).toBe('SUCCEEDED');
      expect(
        (await summaries(w.owner, [['pipelineRunId', run.id]])).data,
      ).toHaveLength(1);
    });
  });

  describe('a large plan', () => {
    const COUNT = 10_000;

    function largePlan(): Plan {
      return {
        format_version: '1.2',
        terraform_version: '1.9.0',
        resource_changes: Array.from({ length: COUNT }, (_, i) =>
          resourceChange(
            `aws_s3_object.generated["object-${i}"]`,
            [i % 10 === 0 ? 'update' : 'create'],
            { index: `object-${i}` },
            {
              before:
                i % 10 === 0
                  ? { bucket: 'assets', key: `object-${i}`, etag: 'old' }
                  : null,
              after: {
                bucket: 'assets',
                key: `object-${i}`,
                content_type: 'text/plain',
                tags: { index: String(i) },
              },
              after_unknown: { etag: true, id: true },
              before_sensitive: false,
              after_sensitive: { tags: {} },
            },
          ),
        ),
      };
    }

    it(`records a ${COUNT}-resource plan and lists every resource`, async () => {
      const w = await world();
      const run = await trigger(api, w.owner, w.stack.changePipelineId);
      const claimed = await claim(api, w.runnerKey);
      const planJson = largePlan();
      const bytes = JSON.stringify(planJson).length;

      // The test process hosts the backend too, so this histogram sees every stall the
      // ingestion causes (JSON parsing, validation, the chunked inserts).
      const loopDelay = monitorEventLoopDelay({ resolution: 10 });
      loopDelay.enable();
      const started = process.hrtime.bigint();
      const response = await api.post(
        `/runner/step-executions/${claimed.stepExecution.id}/complete`,
        {
          data: {
            leaseToken: claimed.leaseToken,
            status: 'SUCCEEDED',
            planJson,
          },
        },
        w.runnerKey,
      );
      const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
      loopDelay.disable();
      expectStatus(response, 200);
      process.stdout.write(
        `[iacRoutes.test] ${databaseId}: completing a plan step with ${COUNT} resources (${(
          bytes /
          1024 /
          1024
        ).toFixed(1)} MiB of plan JSON) took ${elapsedMs.toFixed(
          0,
        )} ms; longest event-loop stall ${(loopDelay.max / 1e6).toFixed(
          0,
        )} ms\n`,
      );

      const listed = await resources(w.owner, [
        ['pipelineRunId', run.id],
        ['limit', 500],
      ]);
      expect(listed.meta.totalCount).toBe(COUNT);
      expect(listed.data).toHaveLength(500);
      // Creates come before updates.
      expect(listed.data.every(r => r.changeKind === 'CREATE')).toBe(true);
      const [summary] = (await summaries(w.owner, [['pipelineRunId', run.id]]))
        .data;
      expect(summary).toMatchObject({
        addCount: COUNT - COUNT / 10,
        changeCount: COUNT / 10,
        destroyCount: 0,
      });
    }, 300_000);
  });
});
