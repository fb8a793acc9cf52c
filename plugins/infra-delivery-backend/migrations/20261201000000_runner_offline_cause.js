// @ts-check

/**
 * Why the service itself turned a runner OFFLINE, while the runner has not been seen since:
 * `STOPPED_REPORTING` when the lease of the step it held ran out (the step is queued again).
 * Such a runner no longer counts as connected, nor as busy with that step: a run whose step was
 * queued again said "the one connected runner is busy with another step" of a dead runner and
 * of the step's own first attempt, and hid the notice to start a runner. Cleared by any sighting.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('runners', table => {
    table.string('offline_cause', 32).nullable();
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('runners', table => {
    table.dropColumn('offline_cause');
  });
};
