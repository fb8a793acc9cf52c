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
 * Each stack keeps the number of addresses in its current state, written by the store in the
 * transaction that applies an apply or destroy to that state: #24 (counts for 200 stacks)
 * reads 200 stack rows instead of counting some 20,000–30,000 state rows (11–40 ms on SQLite
 * at the default scale, with the process blocked meanwhile).
 *
 * The stack-state reads filter on the organization and the stack: the primary key
 * (stack_id, address) found the rows, but every one of them was then read from the table for
 * its organization_id. An index on both makes counting a stack's state an index-only scan
 * (the total of #14 by stack, the counters' backfill and upkeep).
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
  await knex.schema.alterTable('stacks', table => {
    table
      .integer('resource_count')
      .notNullable()
      .defaultTo(0)
      .comment('Addresses in the current state, kept by the IaC result store');
  });
  await knex.raw(
    `UPDATE stacks SET resource_count =
       (SELECT count(*) FROM stack_resource_state
         WHERE stack_resource_state.organization_id = stacks.organization_id
           AND stack_resource_state.stack_id = stacks.id)`,
  );
  // The organization keeps the backfill on the (organization, pipeline, id) index.
  await knex.raw(
    `UPDATE pipelines SET run_count =
       (SELECT count(*) FROM pipeline_runs
         WHERE pipeline_runs.organization_id = pipelines.organization_id
           AND pipeline_runs.pipeline_id = pipelines.id)`,
  );
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('stacks', table => {
    table.dropColumn('resource_count');
  });
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
