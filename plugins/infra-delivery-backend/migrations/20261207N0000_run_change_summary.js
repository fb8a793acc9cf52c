// @ts-check

/** @type {[string, string][]} */
const COUNTS = [
  ['plan_add_count', 'adds'],
  ['plan_change_count', 'changes in place'],
  ['plan_destroy_count', 'destroys'],
  ['plan_import_count', 'imports'],
];

/**
 * A run's change summary in its own row (`plan_*`): what its latest plan would change, so that
 * the runs lists say "No changes" or "+3 ~1 −0" beside a run's status without reading each
 * run's execution summaries. Plan ingestion writes them from now on.
 *
 * The runs planned before are filled in after start, in short batches, by a scheduled task
 * (`PipelineRunStore.backfillChangeSummaries`), not here: on 1 M runs with 200,000 plan
 * summaries (the bench's scale 1) updating every planned run in this migration took 16 s on
 * SQLite and 62 s on PostgreSQL (each updated row rewrites the run's eight index entries
 * there), and the plugin serves nothing while its migrations run. The task's batches took
 * 2.4 s in all on SQLite (32 ms the longest) and 33 s on PostgreSQL, while the plugin serves. `run_change_summary_backfill` says how far
 * it has come: the summaries below `before_id` (newest first; null: all) are still to do. The
 * task deletes its row when it is done.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('pipeline_runs', table => {
    for (const [column, what] of COUNTS) {
      table
        .integer(column)
        .nullable()
        .comment(
          `Resources the run's latest plan ${what}; null until it plans`,
        );
    }
    table
      .boolean('plan_no_changes')
      .nullable()
      .comment(
        "Whether the run's latest plan had nothing to apply; null until it plans",
      );
  });
  await knex.schema.createTable('run_change_summary_backfill', table => {
    table.integer('id').primary();
    table
      .string('before_id', 36)
      .nullable()
      .comment(
        'Plan summaries with a smaller id are still to be copied to their runs',
      );
  });
  await knex('run_change_summary_backfill').insert({ id: 1, before_id: null });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('run_change_summary_backfill');
  // Native DROP COLUMN (SQLite ≥ 3.35): Knex's SQLite fallback copies the table, and the
  // steps, summaries and resources that cascade from its rows.
  for (const column of [...COUNTS.map(([name]) => name), 'plan_no_changes']) {
    await knex.raw(`ALTER TABLE pipeline_runs DROP COLUMN ${column}`);
  }
};
