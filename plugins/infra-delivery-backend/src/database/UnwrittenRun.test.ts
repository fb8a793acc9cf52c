import knexFactory from 'knex';
import { PipelineRunStore } from './PipelineRunStore';

/** `newRun` only builds rows: the store's Knex handle is never connected here. */
const store = new PipelineRunStore(knexFactory({ client: 'pg' }));

function unwritten() {
  return store.newRun({
    organizationId: 'org',
    pipelineId: 'pipeline',
    pipelineVersionId: 'version',
    projectId: 'project',
    input: { region: 'eu-west-1' },
    steps: [
      { type: 'iac.plan', name: 'Plan' },
      { type: 'approval', name: 'Approve' },
    ],
  });
}

describe('UnwrittenRun', () => {
  it('starts QUEUED with PENDING steps in order, as createRun writes them', async () => {
    const run = unwritten();
    expect(run.record).toMatchObject({
      status: 'QUEUED',
      attemptEpoch: 1,
      input: { region: 'eu-west-1' },
      queueReason: 'Waiting for admission',
    });
    const steps = await run.listSteps(run.record.id);
    expect(steps.map(s => [s.position, s.name, s.status])).toEqual([
      [0, 'Plan', 'PENDING'],
      [1, 'Approve', 'PENDING'],
    ]);
    expect(steps.every(s => s.pipelineRunId === run.record.id)).toBe(true);
  });

  it('moves the run and a step only from the statuses given, as the store compares and sets', async () => {
    const run = unwritten();
    const id = run.record.id;
    expect(
      await run.transitionRun(id, ['RUNNING'], { status: 'SUCCEEDED' }),
    ).toBe(false);
    expect(run.record.status).toBe('QUEUED');
    expect(
      await run.transitionRun(id, ['QUEUED'], {
        status: 'RUNNING',
        queueReason: null,
        queueState: {
          preflightBlockedByAdmissionCondition: false,
          stackRunPreflightPending: false,
        },
      }),
    ).toBe(true);
    expect(run.record).toMatchObject({
      status: 'RUNNING',
      queueState: { preflightBlockedByAdmissionCondition: false },
    });
    expect(run.record.queueReason).toBeUndefined();

    const [plan] = await run.listSteps(id);
    expect(
      await run.transitionStep(plan.id, ['RUNNING'], { status: 'SUCCEEDED' }),
    ).toBe(false);
    expect(
      await run.transitionStep(plan.id, ['PENDING'], {
        status: 'QUEUED',
        attemptEpoch: 1,
      }),
    ).toBe(true);
    expect((await run.listSteps(id)).map(s => s.status)).toEqual([
      'QUEUED',
      'PENDING',
    ]);
  });

  it('knows nothing of other runs and steps', async () => {
    const run = unwritten();
    expect(
      await run.transitionRun('another', ['QUEUED'], { status: 'RUNNING' }),
    ).toBe(false);
    expect(
      await run.transitionStep('another', ['PENDING'], { status: 'QUEUED' }),
    ).toBe(false);
    expect(await run.listSteps('another')).toEqual([]);
    expect(run.record.status).toBe('QUEUED');
  });

  it('writes the rows as they now are', async () => {
    const run = unwritten();
    await run.transitionRun(run.record.id, ['QUEUED'], { status: 'RUNNING' });
    const { row, stepRows } = run.written();
    expect(row.status).toBe('RUNNING');
    expect(JSON.parse(row.input!)).toEqual({ region: 'eu-west-1' });
    expect(stepRows.map(s => s.status)).toEqual(['PENDING', 'PENDING']);
  });
});
