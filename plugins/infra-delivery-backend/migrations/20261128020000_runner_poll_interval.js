// @ts-check

/**
 * How long a runner waits between claims when it finds no work, as it says when it claims. A
 * free runner that has not asked for work in a few of its intervals while a step waits for a
 * claim has stopped without signing off (killed, host lost): waiting runs say so, where they
 * counted it as a free runner until the online window (a minute) had passed.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('runners', table => {
    table.integer('poll_interval_ms').nullable();
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('runners', table => {
    table.dropColumn('poll_interval_ms');
  });
};
