// @ts-check

/**
 * The runner registry: every runner as the service last saw it. A runner is known by the id it
 * sends (`runnerId`) within its organization; each claim, heartbeat, log append and completion
 * moves `last_seen_at`, and the portal calls it ONLINE while that is recent. Rows not seen for
 * the retention period are deleted by a scheduled task.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('runners', table => {
    table.comment('Runners of each organization, as last seen');
    table.string('id', 36).primary().comment('UUIDv7: the list order');
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table
      .string('runner_id', 128)
      .notNullable()
      .comment('As the runner sends it');
    table
      .string('service_account_id', 36)
      .notNullable()
      .comment('The service account whose API key the runner last used');
    table.text('labels').notNullable().comment('JSON array of strings');
    table.string('version', 64).nullable();
    table.string('hostname', 255).nullable();
    table
      .string('current_step_execution_id', 36)
      .nullable()
      .comment('The step the runner holds a lease on');
    table.timestamp('first_seen_at', { useTz: true }).notNullable();
    table.timestamp('last_seen_at', { useTz: true }).notNullable();
    table.unique(['organization_id', 'runner_id'], {
      indexName: 'runners_organization_runner_uq',
    });
    table.index(
      ['organization_id', 'last_seen_at'],
      'runners_organization_last_seen_idx',
    );
    table.index(['last_seen_at'], 'runners_last_seen_idx');
  });
};

/**
 * @param {import('knex').Knex} knex
 */
exports.down = async function down(knex) {
  await knex.schema.dropTable('runners');
};
