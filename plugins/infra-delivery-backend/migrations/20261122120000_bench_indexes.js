// @ts-check

/**
 * What the benchmarks at scale called for (docs/benchmarks.md).
 *
 * Each pipeline keeps the number of its runs. The unfiltered runs list (and the list filtered
 * by pipelines only) reports its total from these counters instead of counting up to a
 * million index entries on every page: 25–60 ms per page at a million runs, on SQLite with the
 * whole backend blocked meanwhile. Runs leave only with their pipeline (ON DELETE CASCADE), so
 * a counter never outlives or undercounts its runs.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('pipelines', table => {
    table
      .integer('run_count')
      .notNullable()
      .defaultTo(0)
      .comment('Number of runs of the pipeline, kept by the run store');
  });
  await knex.raw(
    `UPDATE pipelines SET run_count =
       (SELECT count(*) FROM pipeline_runs WHERE pipeline_runs.pipeline_id = pipelines.id)`,
  );
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('pipelines', table => {
    table.dropColumn('run_count');
  });
};
