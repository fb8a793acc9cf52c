// @ts-check

/**
 * The API key a runner last claimed with, and who turned it OFFLINE: revoking a key (or deleting
 * its service account) turns the runners that signed in with it OFFLINE at once
 * (`offline_cause` KEY_REVOKED or ACCOUNT_DELETED, by `offline_by`) and queues their steps again,
 * where they read "Running", then silent, then "busy", until their lease ran out, and "revoked"
 * appeared nowhere.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('runners', table => {
    table.string('api_key_id', 36).nullable();
    table.string('offline_by', 255).nullable();
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('runners', table => {
    table.dropColumn('api_key_id');
    table.dropColumn('offline_by');
  });
};
