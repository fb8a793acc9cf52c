// @ts-check

/**
 * Admission asks, for one stack, whether a run holds it or waits for it (status RUNNING,
 * WAITING_FOR_APPROVAL or QUEUED), under the stack's admission lock, on every trigger. Without
 * an index on the entity and the status, PostgreSQL walked `pipeline_runs_status_idx` through
 * every open run of every organization and filtered them by stack: at the default benchmark
 * scale, with 8,934 runs waiting for approval, 6.2 ms per read, the lock held meanwhile. With
 * this index each of those reads is one short range of the stack's open runs, in id order.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('pipeline_runs', table => {
    // Runs attached to nothing are never read this way: they stay out of it, and their
    // inserts do not write it. A read with `attached_entity_id = ?` implies the predicate on
    // both databases.
    table.index(
      ['organization_id', 'attached_entity_id', 'status', 'id'],
      'pipeline_runs_org_entity_status_idx',
      { predicate: knex.whereNotNull('attached_entity_id') },
    );
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('pipeline_runs', table => {
    table.dropIndex(
      ['organization_id', 'attached_entity_id', 'status', 'id'],
      'pipeline_runs_org_entity_status_idx',
    );
  });
};
