import { Knex } from 'knex';
import { fromJsonColumn } from '../database/json';

/** Rows of a grouped count: the group's columns and the count (a string on PostgreSQL). */
type Counted = Record<string, string> & { count: string | number };

const ACTIVE_RUN = ['RUNNING', 'WAITING_FOR_APPROVAL'];
const IN_FLIGHT_DEPLOYMENT = ['PENDING', 'IN_PROGRESS'];

/** The number of rows of `table` per value of `column`. */
async function rowsPer(
  knex: Knex,
  table: string,
  column: string,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const row of (await knex(table)
    .select(column)
    .count({ count: '*' })
    .groupBy(column)) as Counted[]) {
    counts.set(row[column] as string, Number(row.count));
  }
  return counts;
}

/**
 * What the data model promises whatever happened to the process that wrote it, checked
 * directly in the database. Returns the violations found (none is the expectation):
 *
 * - a run has one step execution per step of the pipeline version it runs;
 * - a succeeded run has only succeeded (or skipped) steps; a running step holds a lease;
 * - no stack has two active runs;
 * - a plan summary has all of its plan's resources (`resourceCount`: every plan of the test
 *   reports the same plan), and belongs to a succeeded step; a succeeded IaC step of a stack
 *   run has exactly one summary;
 * - a pipeline's kept run counters (`pipeline_run_counters`) say what counting its runs says;
 * - no service has two deployments in flight; a rollback names a deployment that exists.
 */
export async function checkDataInvariants(
  knex: Knex,
  resourceCount: number,
): Promise<string[]> {
  const violations: string[] = [];

  const versions = new Map<string, number>();
  for (const row of await knex('pipeline_versions').select('id', 'steps')) {
    versions.set(row.id, fromJsonColumn<unknown[]>(row.steps)?.length ?? 0);
  }
  const stepCounts = await rowsPer(knex, 'step_executions', 'pipeline_run_id');
  for (const run of await knex('pipeline_runs').select(
    'id',
    'pipeline_version_id',
  )) {
    const expected = versions.get(run.pipeline_version_id);
    const actual = stepCounts.get(run.id) ?? 0;
    if (expected !== actual) {
      violations.push(
        `run ${run.id} has ${actual} step executions, its version ${expected}`,
      );
    }
  }

  for (const row of await knex('step_executions as s')
    .join('pipeline_runs as r', 'r.id', 's.pipeline_run_id')
    .where('r.status', 'SUCCEEDED')
    .whereNotIn('s.status', ['SUCCEEDED', 'SKIPPED'])
    .select('s.id', 's.status', 'r.id as run_id')) {
    violations.push(
      `succeeded run ${row.run_id} has step ${row.id} ${row.status}`,
    );
  }
  for (const row of await knex('step_executions')
    .where({ status: 'RUNNING' })
    .where(q => q.whereNull('lease_token_hash').orWhereNull('lease_expires_at'))
    .select('id')) {
    violations.push(`running step ${row.id} holds no lease`);
  }

  for (const row of (await knex('pipeline_runs')
    .whereIn('status', ACTIVE_RUN)
    .whereNotNull('attached_entity_id')
    .select('attached_entity_id')
    .count({ count: '*' })
    .groupBy('attached_entity_id')
    .havingRaw('count(*) > 1')) as Counted[]) {
    violations.push(
      `stack ${row.attached_entity_id} has ${row.count} active runs`,
    );
  }

  const resourcesPerStep = await rowsPer(
    knex,
    'iac_resources',
    'step_execution_id',
  );
  const summariesPerStep = new Map<string, number>();
  for (const summary of await knex('iac_execution_summaries as x')
    .leftJoin('step_executions as s', 's.id', 'x.step_execution_id')
    .select('x.id', 'x.step_execution_id', 's.status')) {
    const stepId = summary.step_execution_id as string;
    summariesPerStep.set(stepId, (summariesPerStep.get(stepId) ?? 0) + 1);
    const resources = resourcesPerStep.get(stepId) ?? 0;
    if (resources !== resourceCount) {
      violations.push(
        `summary ${summary.id} has ${resources} resources, its plan ${resourceCount}`,
      );
    }
    if (summary.status !== 'SUCCEEDED') {
      violations.push(
        `summary ${summary.id} belongs to a step that is ${summary.status}`,
      );
    }
  }
  for (const step of await knex('step_executions as s')
    .join('pipeline_runs as r', 'r.id', 's.pipeline_run_id')
    .where('r.attached_entity_type', 'STACK')
    .whereIn('s.type', ['iac.plan', 'iac.apply', 'iac.destroy'])
    .where('s.status', 'SUCCEEDED')
    .select('s.id')) {
    const summaries = summariesPerStep.get(step.id) ?? 0;
    if (summaries !== 1) {
      violations.push(`succeeded step ${step.id} has ${summaries} summaries`);
    }
  }
  for (const [stepId] of resourcesPerStep) {
    if (!summariesPerStep.has(stepId)) {
      violations.push(`step ${stepId} has resources but no summary`);
    }
  }

  const runsPerPipeline = await rowsPer(knex, 'pipeline_runs', 'pipeline_id');
  const counted = new Map<string, number>();
  for (const row of (await knex('pipeline_run_counters')
    .select('pipeline_id')
    .sum({ count: 'run_count' })
    .groupBy('pipeline_id')) as Counted[]) {
    counted.set(row.pipeline_id as string, Number(row.count));
  }
  for (const pipeline of await knex('pipelines').select('id')) {
    const runs = runsPerPipeline.get(pipeline.id) ?? 0;
    const count = counted.get(pipeline.id) ?? 0;
    if (count !== runs) {
      violations.push(
        `pipeline ${pipeline.id} counts ${count} runs and has ${runs}`,
      );
    }
  }

  for (const row of (await knex('deployments')
    .whereIn('status', IN_FLIGHT_DEPLOYMENT)
    .select('cloud_account_id', 'cluster_name', 'service_name')
    .count({ count: '*' })
    .groupBy('cloud_account_id', 'cluster_name', 'service_name')
    .havingRaw('count(*) > 1')) as Counted[]) {
    violations.push(
      `service ${row.service_name} has ${row.count} deployments in flight`,
    );
  }
  for (const row of await knex('deployments as d')
    .leftJoin('deployments as t', 't.id', 'd.rollback_to_deployment_id')
    .whereNotNull('d.rollback_to_deployment_id')
    .whereNull('t.id')
    .select('d.id')) {
    violations.push(`rollback ${row.id} names a deployment that is missing`);
  }
  return violations;
}

/**
 * What the storage engine says of its own files: SQLite's `PRAGMA integrity_check` answer
 * (`ok` when sound). PostgreSQL recovers from its write-ahead log and has no such check, so
 * there the data invariants above are the whole proof.
 */
export async function storageIntegrity(
  knex: Knex,
  client: string,
): Promise<string> {
  if (client !== 'better-sqlite3') {
    return 'ok';
  }
  const rows: { integrity_check: string }[] = await knex.raw(
    'PRAGMA integrity_check',
  );
  return rows.map(row => row.integrity_check).join('\n');
}
