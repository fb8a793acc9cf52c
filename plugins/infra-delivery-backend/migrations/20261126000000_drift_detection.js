// @ts-check

/**
 * Drift detection. A stack may have a drift check interval; a scheduled task starts a plan-only
 * run of its change pipeline when `next_drift_check_at` is due, and that run's plan sets the
 * stack's drift status. Runs say what they are for (`kind`) and what started them
 * (`trigger_source`); a run that reconciles drift names the drift check that found it.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('stacks', table => {
    table
      .integer('drift_check_interval_hours')
      .nullable()
      .comment('Hours between scheduled drift checks; null: none');
    table
      .timestamp('next_drift_check_at', { useTz: true })
      .nullable()
      .comment('When the scheduler next starts a drift check');
    table
      .string('drift_status', 16)
      .notNullable()
      .defaultTo('UNKNOWN')
      .comment('IN_SYNC, DRIFTED or UNKNOWN');
    table.integer('drifted_resource_count').nullable();
    table.timestamp('last_drift_check_at', { useTz: true }).nullable();
    table.string('last_drift_check_run_id', 36).nullable();
    table.index(['next_drift_check_at'], 'stacks_next_drift_check_idx');
    table.index(
      ['organization_id', 'drift_status', 'id'],
      'stacks_organization_drift_status_idx',
    );
  });
  await knex.schema.alterTable('pipeline_runs', table => {
    table
      .string('kind', 16)
      .notNullable()
      .defaultTo('STANDARD')
      .comment('STANDARD or DRIFT_CHECK');
    table
      .string('trigger_source', 32)
      .notNullable()
      .defaultTo('API')
      .comment('API, DRIFT_SCHEDULE or DRIFT_RECONCILE');
    table
      .string('reconciled_drift_check_run_id', 36)
      .nullable()
      .comment('The drift check whose drift this run reconciles');
    table.index(
      ['organization_id', 'kind', 'id'],
      'pipeline_runs_organization_kind_idx',
    );
  });
};

/**
 * @param {import('knex').Knex} knex
 */
exports.down = async function down(knex) {
  await knex.schema.alterTable('pipeline_runs', table => {
    table.dropIndex([], 'pipeline_runs_organization_kind_idx');
    table.dropColumn('reconciled_drift_check_run_id');
    table.dropColumn('trigger_source');
    table.dropColumn('kind');
  });
  await knex.schema.alterTable('stacks', table => {
    table.dropIndex([], 'stacks_organization_drift_status_idx');
    table.dropIndex([], 'stacks_next_drift_check_idx');
    table.dropColumn('last_drift_check_run_id');
    table.dropColumn('last_drift_check_at');
    table.dropColumn('drifted_resource_count');
    table.dropColumn('drift_status');
    table.dropColumn('next_drift_check_at');
    table.dropColumn('drift_check_interval_hours');
  });
};
