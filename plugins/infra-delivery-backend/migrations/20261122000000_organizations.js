// @ts-check

/**
 * The tenant root: every other row of the plugin belongs to an organization.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('organizations', table => {
    table.comment('Tenants of the service');
    table.string('id', 36).primary().notNullable();
    table.string('name', 255).notNullable();
    table.string('plan', 64).nullable().comment('Plan chosen at sign-up');
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('organizations');
};
