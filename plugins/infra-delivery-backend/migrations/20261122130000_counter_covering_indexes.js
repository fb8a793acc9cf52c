// @ts-check

/**
 * The kept counters (20261122120000_bench_indexes.js) are summed per organization on every
 * page of the unfiltered runs list: without an index on (organization_id, run_count) SQLite
 * scans the whole pipelines table, definitions and all, for the 2,000 counters (0.20 ms of the
 * page's 0.43 ms of SQL at the default scale). With it the sum is an index-only scan. The
 * stacks' counters get the same for #24.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('pipelines', table => {
    table.index(
      ['organization_id', 'run_count'],
      'pipelines_org_run_count_idx',
    );
  });
  await knex.schema.alterTable('stacks', table => {
    table.index(
      ['organization_id', 'id', 'resource_count'],
      'stacks_org_id_resource_count_idx',
    );
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('stacks', table => {
    table.dropIndex(
      ['organization_id', 'id', 'resource_count'],
      'stacks_org_id_resource_count_idx',
    );
  });
  await knex.schema.alterTable('pipelines', table => {
    table.dropIndex(
      ['organization_id', 'run_count'],
      'pipelines_org_run_count_idx',
    );
  });
};
