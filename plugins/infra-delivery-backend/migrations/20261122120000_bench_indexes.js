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
 * The stack-state counts (#24 for 200 stacks, and the total of #14 by stack) filter on the
 * organization and the stack: the primary key (stack_id, address) found the rows, but every
 * one of them was then read from the table for its organization_id — 50 ms for 200 stacks at
 * a tenth of the default scale. An index on both makes the count an index-only scan.
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
  await knex.schema.alterTable('stack_resource_state', table => {
    table.index(
      ['organization_id', 'stack_id'],
      'stack_resource_state_org_stack_idx',
    );
  });
  await knex.raw(
    `UPDATE pipelines SET run_count =
       (SELECT count(*) FROM pipeline_runs
         WHERE pipeline_runs.organization_id = pipelines.organization_id
           AND pipeline_runs.pipeline_id = pipelines.id)`,
  );
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('stack_resource_state', table => {
    table.dropIndex(
      ['organization_id', 'stack_id'],
      'stack_resource_state_org_stack_idx',
    );
  });
  await knex.schema.alterTable('pipelines', table => {
    table.dropColumn('run_count');
  });
};
