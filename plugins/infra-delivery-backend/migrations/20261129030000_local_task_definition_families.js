// @ts-check

/**
 * The local deployment driver's registry of task definition families: as ECS does, it numbers
 * each registration of a family 1, 2, 3… per account and region, so the portal shows
 * `payments-api:2` after `payments-api:1` (it numbered them by a hash of the definition before).
 * The AWS driver never writes here: ECS keeps its own.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('local_task_definition_families', table => {
    table.comment(
      'Latest revision the local deployment driver registered per task definition family',
    );
    table.string('account_cloud_id', 64).notNullable();
    table.string('region', 32).notNullable();
    table.string('family', 255).notNullable();
    table.integer('latest_revision').notNullable();
    table.primary(['account_cloud_id', 'region', 'family']);
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('local_task_definition_families');
};
