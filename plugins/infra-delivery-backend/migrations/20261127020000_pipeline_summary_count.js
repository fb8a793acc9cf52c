// @ts-check

/**
 * Each pipeline keeps the number of its execution summaries, as it keeps the number of its
 * runs (20261122120000_bench_indexes.js). The summaries of one pipeline (#10, the pipeline's
 * plans and applies in the portal) reported their total by counting the pipeline's entries of
 * `iac_summaries_pipeline_idx` on every page: 41 µs for 500 summaries on SQLite in a loop, a
 * fifth of the page's SQL, and growing with every plan the pipeline runs. Summaries leave only
 * with their run, and runs only with their pipeline (ON DELETE CASCADE), so the counter never
 * outlives or undercounts them.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('pipelines', table => {
    table
      .integer('summary_count')
      .notNullable()
      .defaultTo(0)
      .comment(
        'Number of IaC execution summaries of the pipeline, kept by the IaC result store',
      );
  });
  await knex.raw(
    `UPDATE pipelines SET summary_count =
       (SELECT count(*) FROM iac_execution_summaries
         WHERE iac_execution_summaries.organization_id = pipelines.organization_id
           AND iac_execution_summaries.pipeline_id = pipelines.id)`,
  );
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('pipelines', table => {
    table.dropColumn('summary_count');
  });
};
