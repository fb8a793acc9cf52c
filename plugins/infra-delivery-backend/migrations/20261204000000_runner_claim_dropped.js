// @ts-check

/**
 * When a runner's held claim lost its connection before it was answered (`claim_dropped_at`):
 * the runner was killed, or its host or network lost. Kept in memory by the instance that held
 * the claim until now, so that behind several instances the others did not know, and a run
 * waiting for that runner read "free and takes it next" on them for fifteen seconds more than on
 * the instance that held it, and the Runners card "Online" throughout. Cleared by the runner's
 * next claim, on whichever instance; null while it asks.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('runners', table => {
    table
      .timestamp('claim_dropped_at', { useTz: true })
      .nullable()
      .comment(
        'When the claim held for the runner lost its connection unanswered, until it asks again',
      );
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('runners', table => {
    table.dropColumn('claim_dropped_at');
  });
};
