// @ts-check

/** Counter rows per pipeline; a trigger adds to one of them, picked at random. */
const SHARDS = 8;

/**
 * Every trigger of a pipeline updated its row (`run_count`, `latest_run_id`,
 * `latest_run_status`), and PostgreSQL holds a row's lock until the commit's WAL flush: the
 * triggers of one pipeline ran one at a time, 434 requests/s with p99 110 ms at 16
 * connections where a trigger's statement alone takes 0.7 ms (docs/benchmarks.md, session 46).
 *
 * Now a trigger writes no pipeline row:
 * - the run count is split over up to eight rows of `pipeline_run_counters` per pipeline,
 *   one picked at random per run, and summed where it is read (an index-only scan);
 * - the latest run is read from the runs themselves (the newest on the
 *   (organization_id, pipeline_id, id) index), its status with it, so the engine no longer
 *   writes it on every transition either. Only a retry writes the pipeline: the retried run
 *   (`retried_run_id`) stays the latest until a run newer than the retry (`retried_at_id`, an
 *   id minted when it was retried) is created.
 *
 * Columns are dropped natively (SQLite ≥ 3.35): Knex's SQLite fallback copies the table, and
 * the runs that cascade from its rows.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('pipeline_run_counters', table => {
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table
      .string('pipeline_id', 36)
      .notNullable()
      .references('id')
      .inTable('pipelines')
      .onDelete('CASCADE');
    table
      .integer('shard')
      .notNullable()
      .comment(`0 to ${SHARDS - 1}: the row a run was counted in`);
    table
      .integer('run_count')
      .notNullable()
      .comment('Runs of the pipeline counted in this row');
    table.primary(['pipeline_id', 'shard']);
    table.index(
      ['organization_id', 'pipeline_id', 'run_count'],
      'pipeline_run_counters_org_pipeline_idx',
    );
  });
  await knex.raw(
    `INSERT INTO pipeline_run_counters (organization_id, pipeline_id, shard, run_count)
     SELECT organization_id, id, 0, run_count FROM pipelines WHERE run_count > 0`,
  );
  await knex.schema.alterTable('pipelines', table => {
    table
      .string('retried_run_id', 36)
      .nullable()
      .comment(
        'The run retried last: the latest run until one newer than retried_at_id is created',
      );
    table
      .string('retried_at_id', 36)
      .nullable()
      .comment('An id minted when retried_run_id was retried');
  });
  // A pointer moved back by a retry before this migration is kept as such a retry.
  await knex.raw(
    `UPDATE pipelines SET retried_run_id = latest_run_id,
       retried_at_id = (SELECT max(id) FROM pipeline_runs
         WHERE pipeline_runs.organization_id = pipelines.organization_id
           AND pipeline_runs.pipeline_id = pipelines.id)
     WHERE latest_run_id IS NOT NULL
       AND latest_run_id < (SELECT max(id) FROM pipeline_runs
         WHERE pipeline_runs.organization_id = pipelines.organization_id
           AND pipeline_runs.pipeline_id = pipelines.id)`,
  );
  await knex.schema.alterTable('pipelines', table => {
    table.dropIndex(
      ['organization_id', 'run_count'],
      'pipelines_org_run_count_idx',
    );
  });
  for (const column of ['run_count', 'latest_run_id', 'latest_run_status']) {
    await knex.raw('ALTER TABLE pipelines DROP COLUMN ??', [column]);
  }
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('pipelines', table => {
    table.integer('run_count').notNullable().defaultTo(0);
    table.string('latest_run_id', 36).nullable();
    table.string('latest_run_status', 32).nullable();
  });
  await knex.raw(
    `UPDATE pipelines SET run_count = COALESCE((SELECT sum(run_count)
       FROM pipeline_run_counters WHERE pipeline_id = pipelines.id), 0)`,
  );
  await knex.raw(
    `UPDATE pipelines SET latest_run_id = CASE
       WHEN retried_run_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM pipeline_runs
         WHERE pipeline_runs.organization_id = pipelines.organization_id
           AND pipeline_runs.pipeline_id = pipelines.id
           AND pipeline_runs.id > pipelines.retried_at_id)
       THEN retried_run_id
       ELSE (SELECT max(id) FROM pipeline_runs
         WHERE pipeline_runs.organization_id = pipelines.organization_id
           AND pipeline_runs.pipeline_id = pipelines.id) END`,
  );
  await knex.raw(
    `UPDATE pipelines SET latest_run_status =
       (SELECT status FROM pipeline_runs WHERE pipeline_runs.id = pipelines.latest_run_id)`,
  );
  await knex.schema.alterTable('pipelines', table => {
    table.index(
      ['organization_id', 'run_count'],
      'pipelines_org_run_count_idx',
    );
  });
  for (const column of ['retried_run_id', 'retried_at_id']) {
    await knex.raw('ALTER TABLE pipelines DROP COLUMN ??', [column]);
  }
  await knex.schema.dropTable('pipeline_run_counters');
};
