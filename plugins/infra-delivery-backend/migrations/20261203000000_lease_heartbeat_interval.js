// @ts-check

/**
 * A runner's heartbeat interval on its lease: a runner killed mid-step read silent in the portal
 * only once half the lease (30 s) passed since its last renewal. A runner now says, with each
 * renewal, how often it renews (`lease_heartbeat_interval_ms`, written by the same UPDATE as the
 * renewal), and the portal calls it silent after a few of those; null where the runner does not
 * say (an older one), and for a lease not renewed yet.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('step_executions', table => {
    table
      .integer('lease_heartbeat_interval_ms')
      .nullable()
      .comment(
        'How often the lease runner renews the lease, as its latest heartbeat said; null when it did not say',
      );
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('step_executions', table => {
    table.dropColumn('lease_heartbeat_interval_ms');
  });
};
