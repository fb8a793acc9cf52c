// @ts-check

/**
 * Idempotency keys of the POSTs that start work (trigger a run, create or roll back a
 * deployment, create an API key).
 *
 * A row is written as `PENDING` before the work starts; the unique index over organization,
 * caller, operation and key is what lets exactly one of several concurrent requests with one
 * key do the work while the others wait for its recorded answer. The answer is kept sealed
 * (it may hold a new API key's secret) until `expires_at`.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('idempotency_keys', table => {
    table.comment(
      'Answers of idempotent requests, by organization, caller, operation and key',
    );
    table.string('id', 36).primary();
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table
      .string('caller_id', 255)
      .notNullable()
      .comment('Membership, service account or Backstage service subject');
    table.string('operation_id', 64).notNullable();
    table.string('idempotency_key', 255).notNullable();
    table
      .string('request_hash', 64)
      .notNullable()
      .comment('SHA-256 of the path parameters, query and body');
    table
      .string('state', 16)
      .notNullable()
      .comment('PENDING while the first request works, then COMPLETED');
    table.integer('response_status').nullable();
    table
      .text('response_body')
      .nullable()
      .comment('The JSON answer, sealed with the secrets key');
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.unique(
      ['organization_id', 'caller_id', 'operation_id', 'idempotency_key'],
      { indexName: 'idempotency_keys_scope_uq' },
    );
    table.index(['expires_at'], 'idempotency_keys_expires_at_idx');
  });
};

/**
 * @param {import('knex').Knex} knex
 */
exports.down = async function down(knex) {
  await knex.schema.dropTable('idempotency_keys');
};
