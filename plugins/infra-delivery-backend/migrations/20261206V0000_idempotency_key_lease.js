// @ts-check

/**
 * A lease on a key's first request (`lease_expires_at`), renewed by the instance while the
 * request runs. A retry finding a key PENDING with its lease lapsed knows the first request
 * was cut off (its instance died, or the database went away before the answer was recorded)
 * and is answered at once, instead of waiting and hearing IN_PROGRESS for 5 minutes. Null on
 * keys written before it: those keep the 5-minute rule.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('idempotency_keys', table => {
    table
      .timestamp('lease_expires_at', { useTz: true })
      .nullable()
      .comment(
        'Until when the instance working on the first request holds the key; renewed while it runs',
      );
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('idempotency_keys', table => {
    table.dropColumn('lease_expires_at');
  });
};
