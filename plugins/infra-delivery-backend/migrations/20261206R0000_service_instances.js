// @ts-check

/**
 * The backend instances sharing this database, and since when each could be reached without a
 * break (`reachable_since`: its start, or the end of a pause) until it was last known alive
 * (`alive_at`, written every few seconds). Runners cannot be heard while no instance is there:
 * after a restart the run page read "Local runner has not been heard from for 15s" until the
 * runner's next heartbeat got through. The service as a whole has been reachable since the
 * earliest start that a chain of overlapping instances reaches back to, which no one instance
 * knows by itself (several instances, each started at a different time).
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('service_instances', table => {
    table.comment(
      'Backend instances, and since when each was reachable without a break',
    );
    table
      .string('instance_id', 64)
      .primary()
      .comment('A random id the instance picks when it starts');
    table
      .timestamp('reachable_since', { useTz: true })
      .notNullable()
      .comment('Its start, or the end of its latest pause');
    table
      .timestamp('alive_at', { useTz: true })
      .notNullable()
      .comment('When it last said it was alive');
    table.index(['alive_at'], 'service_instances_alive_at_idx');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('service_instances');
};
