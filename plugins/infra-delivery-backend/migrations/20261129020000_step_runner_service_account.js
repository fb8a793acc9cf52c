// @ts-check

/**
 * The service account a step's runner signed in with when it claimed the step: runs name the
 * runner that planned or applied by that account's name ("Plan on Build hosts"), as the Runners
 * card does, and keep it after the runner's row is gone. Steps claimed before have none and go
 * on naming the runner by its id.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('step_executions', table => {
    table.string('runner_service_account_id', 36).nullable();
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('step_executions', table => {
    table.dropColumn('runner_service_account_id');
  });
};
