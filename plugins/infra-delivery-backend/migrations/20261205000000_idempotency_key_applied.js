// @ts-check

/**
 * When the work of a key's first request committed (`applied_at`), written in the work's own
 * transaction: a key left PENDING (its answer never recorded: a restart, the database gone
 * between the work and the record) is taken over only if its work never committed, so that a
 * request sent again is never carried out twice.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('idempotency_keys', table => {
    table
      .timestamp('applied_at', { useTz: true })
      .nullable()
      .comment(
        "When the first request's work committed, in its transaction; null while it has not",
      );
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('idempotency_keys', table => {
    table.dropColumn('applied_at');
  });
};
