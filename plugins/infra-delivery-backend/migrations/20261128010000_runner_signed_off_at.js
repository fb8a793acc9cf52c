// @ts-check

/**
 * When a runner said it stops (SIGTERM, Ctrl-C, the end of `--once`). It reads OFFLINE from then
 * until it claims again, where it read ONLINE, and counted as a free runner for waiting runs,
 * until the online window (a minute) had passed.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('runners', table => {
    table.timestamp('signed_off_at', { useTz: true }).nullable();
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('runners', table => {
    table.dropColumn('signed_off_at');
  });
};
