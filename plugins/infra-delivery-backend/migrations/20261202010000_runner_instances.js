// @ts-check

/**
 * Runner processes: two processes started with the same runner id (the same key and
 * `--runner-id`) each hold leases of their own, but shared one row, so the portal showed one
 * runner, its host and step those of whichever claimed last. A runner now names its process
 * (`instance_id`, '' for one that names none: older runners), the registry keeps a row per
 * runner id and process, and a step keeps the process that holds its lease
 * (`lease_runner_instance_id`), so that its heartbeats and logs move that process's row alone.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('runners', table => {
    table
      .string('instance_id', 64)
      .notNullable()
      .defaultTo('')
      .comment(
        'The runner process, as its claims name it; empty when they name none',
      );
  });
  await knex.schema.alterTable('runners', table => {
    table.dropUnique(
      ['organization_id', 'runner_id'],
      'runners_organization_runner_uq',
    );
    table.unique(['organization_id', 'runner_id', 'instance_id'], {
      indexName: 'runners_organization_runner_instance_uq',
    });
  });
  await knex.schema.alterTable('step_executions', table => {
    table
      .string('lease_runner_instance_id', 64)
      .notNullable()
      .defaultTo('')
      .comment('The process of the lease runner (runners.instance_id)');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('step_executions', table => {
    table.dropColumn('lease_runner_instance_id');
  });
  // One row per runner id again: the newest of its processes' rows.
  await knex('runners')
    .whereExists(
      knex('runners as newer')
        .whereRaw('newer.organization_id = runners.organization_id')
        .whereRaw('newer.runner_id = runners.runner_id')
        .whereRaw('newer.id > runners.id'),
    )
    .delete();
  await knex.schema.alterTable('runners', table => {
    table.dropUnique(
      ['organization_id', 'runner_id', 'instance_id'],
      'runners_organization_runner_instance_uq',
    );
    table.unique(['organization_id', 'runner_id'], {
      indexName: 'runners_organization_runner_uq',
    });
    table.dropColumn('instance_id');
  });
};
