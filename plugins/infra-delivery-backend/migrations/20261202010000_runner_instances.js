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
  // One row per runner id again, as the registry kept it before processes were told apart:
  // the runner as last seen. That is the row of the process seen last, which need not be the
  // newest row (a new process takes over the row of a stopped one), known since the first of
  // its rows. Ties go to the newer row.
  /** @type {Array<{ id: string, organization_id: string, runner_id: string, first_seen_at: unknown, last_seen_at: unknown }>} */
  const rows = await knex('runners').select(
    'id',
    'organization_id',
    'runner_id',
    'first_seen_at',
    'last_seen_at',
  );
  /** @param {unknown} value */
  const time = value => new Date(/** @type {string} */ (value)).getTime();
  /** @type {Map<string, typeof rows>} */
  const byRunner = new Map();
  for (const row of rows) {
    const key = JSON.stringify([row.organization_id, row.runner_id]);
    byRunner.set(key, [...(byRunner.get(key) ?? []), row]);
  }
  for (const group of byRunner.values()) {
    if (group.length < 2) continue;
    const [kept, ...others] = [...group].sort(
      (a, b) =>
        time(b.last_seen_at) - time(a.last_seen_at) || b.id.localeCompare(a.id),
    );
    const firstSeen = group.reduce((earliest, row) =>
      time(row.first_seen_at) < time(earliest.first_seen_at) ? row : earliest,
    ).first_seen_at;
    await knex('runners')
      .whereIn(
        'id',
        others.map(row => row.id),
      )
      .delete();
    await knex('runners')
      .where({ id: kept.id })
      .update({ first_seen_at: firstSeen });
  }
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
