// @ts-check

/**
 * When a runner last renewed its lease on a step (its claim, then each heartbeat). A step's
 * page shows who runs it and, when that runner stops reporting, that the step will be queued
 * again and when: `lease_expires_at` alone cannot say how long the runner has been silent.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('step_executions', table => {
    table.timestamp('lease_renewed_at', { useTz: true }).nullable();
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('step_executions', table => {
    table.dropColumn('lease_renewed_at');
  });
};
