// @ts-check

/**
 * What runs report about infrastructure: execution summaries, the resources each plan or
 * apply touched, and each stack's current state (the latest apply per address), kept as its
 * own table so that reading a stack's state never scans the apply history.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('iac_execution_summaries', table => {
    table.string('id', 36).primary();
    table.string('organization_id', 36).notNullable();
    table.string('pipeline_id', 36).notNullable();
    table
      .string('pipeline_run_id', 36)
      .notNullable()
      .references('id')
      .inTable('pipeline_runs')
      .onDelete('CASCADE');
    table.string('step_execution_id', 36).notNullable();
    table.string('stack_id', 36).notNullable();
    table.string('run_type', 16).notNullable();
    for (const column of [
      'add_count',
      'change_count',
      'destroy_count',
      'import_count',
      'read_count',
      'replace_count',
      'unchanged_count',
    ]) {
      table.integer(column).notNullable();
    }
    table.boolean('applyable').notNullable();
    table.text('output').nullable();
    table.string('plan_filename', 255).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.index(
      ['organization_id', 'pipeline_id', 'id'],
      'iac_summaries_pipeline_idx',
    );
    table.index(
      ['organization_id', 'pipeline_run_id', 'id'],
      'iac_summaries_run_idx',
    );
    table.index(
      ['organization_id', 'stack_id', 'id'],
      'iac_summaries_stack_idx',
    );
  });

  await knex.schema.createTable('iac_resources', table => {
    table.string('id', 36).primary();
    table.string('organization_id', 36).notNullable();
    table.string('stack_id', 36).notNullable();
    table
      .string('pipeline_run_id', 36)
      .notNullable()
      .references('id')
      .inTable('pipeline_runs')
      .onDelete('CASCADE');
    table.string('step_execution_id', 36).notNullable();
    table.string('run_type', 16).notNullable();
    table.string('address', 1024).notNullable();
    table.string('previous_address', 1024).nullable();
    table.string('module_address', 1024).nullable();
    table.string('mode', 16).notNullable();
    table.string('resource_type', 255).notNullable();
    table.string('resource_name', 255).notNullable();
    table.string('index_key', 255).nullable();
    table.string('provider', 255).nullable();
    table.string('change_kind', 16).notNullable();
    table.integer('change_priority').notNullable();
    table.boolean('tainted').notNullable();
    table.text('vendor_data').notNullable();
    table.text('error').nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.index(
      ['pipeline_run_id', 'change_priority', 'id'],
      'iac_resources_run_idx',
    );
    table.index(
      ['step_execution_id', 'change_priority', 'id'],
      'iac_resources_step_idx',
    );
  });

  await knex.schema.createTable('stack_resource_state', table => {
    table.string('stack_id', 36).notNullable();
    table.string('address', 1024).notNullable();
    table.string('organization_id', 36).notNullable();
    table.string('iac_resource_id', 36).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.primary(['stack_id', 'address'], 'stack_resource_state_pk');
    table.index(['iac_resource_id'], 'stack_resource_state_resource_idx');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('stack_resource_state');
  await knex.schema.dropTable('iac_resources');
  await knex.schema.dropTable('iac_execution_summaries');
};
