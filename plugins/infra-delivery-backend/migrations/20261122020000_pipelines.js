// @ts-check

/**
 * The pipeline engine's state: pipelines with immutable versions, runs with their queue
 * state, step executions with runner leases, step logs, and the stacks runs attach to.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('stacks', table => {
    table.string('id', 36).primary();
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table
      .string('project_id', 36)
      .notNullable()
      .references('id')
      .inTable('projects');
    table
      .string('environment_id', 36)
      .notNullable()
      .references('id')
      .inTable('environments');
    table.string('given_id', 63).notNullable();
    table.string('name', 255).notNullable();
    table.text('description').nullable();
    table.string('type', 16).notNullable();
    table.string('code_source_id', 36).nullable();
    table.string('path', 1024).nullable();
    table.boolean('auto_approve').notNullable().defaultTo(false);
    table.string('change_pipeline_id', 36).nullable();
    table.string('destroy_pipeline_id', 36).nullable();
    table.string('latest_run_id', 36).nullable();
    table.timestamp('first_applied_at', { useTz: true }).nullable();
    table
      .text('output')
      .nullable()
      .comment('root outputs of the latest apply, JSON');
    table.string('state_workspace', 255).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['organization_id', 'project_id', 'given_id'], {
      indexName: 'stacks_org_project_given_id_uq',
    });
    table.index(['organization_id', 'id'], 'stacks_org_id_idx');
  });

  await knex.schema.createTable('pipelines', table => {
    table.string('id', 36).primary();
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table
      .string('project_id', 36)
      .notNullable()
      .references('id')
      .inTable('projects');
    table
      .string('stack_id', 36)
      .nullable()
      .comment('set for a stack’s own pipelines');
    table.string('given_id', 63).notNullable();
    table.string('name', 255).notNullable();
    table.text('description').nullable();
    table.string('latest_version_id', 36).nullable();
    table.string('latest_run_id', 36).nullable();
    table.string('latest_run_status', 32).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['organization_id', 'project_id', 'given_id'], {
      indexName: 'pipelines_org_project_given_id_uq',
    });
    table.index(['organization_id', 'id'], 'pipelines_org_id_idx');
  });

  await knex.schema.createTable('pipeline_versions', table => {
    table.string('id', 36).primary();
    table.string('organization_id', 36).notNullable();
    table
      .string('pipeline_id', 36)
      .notNullable()
      .references('id')
      .inTable('pipelines')
      .onDelete('CASCADE');
    table.integer('version').notNullable();
    table.text('steps').notNullable().comment('JSON array of steps');
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.unique(['pipeline_id', 'version'], {
      indexName: 'pipeline_versions_pipeline_version_uq',
    });
    table.index(['pipeline_id', 'id'], 'pipeline_versions_pipeline_id_idx');
  });

  await knex.schema.createTable('pipeline_runs', table => {
    table.string('id', 36).primary();
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table
      .string('pipeline_id', 36)
      .notNullable()
      .references('id')
      .inTable('pipelines')
      .onDelete('CASCADE');
    table.string('pipeline_version_id', 36).notNullable();
    table.string('project_id', 36).notNullable();
    table.string('attached_entity_id', 36).nullable();
    table.string('attached_entity_type', 16).nullable();
    table.string('status', 32).notNullable();
    table.text('description').nullable();
    table.text('input').nullable();
    table.string('variant_id', 64).nullable();
    table.string('variant_name', 255).nullable();
    table.integer('attempt_epoch').notNullable().defaultTo(1);
    table.string('created_by_id', 64).nullable();
    table.text('trigger_metadata').nullable();
    table.text('data').nullable();
    table.text('error').nullable();
    table.text('queue_reason').nullable();
    table.text('queue_state').nullable();
    table.string('queue_condition_key', 128).nullable();
    table.string('engine_workflow_id', 64).nullable();
    table.string('engine_run_id', 64).nullable();
    table.timestamp('started_at', { useTz: true }).nullable();
    table.timestamp('last_attempt_started_at', { useTz: true }).nullable();
    table.timestamp('completed_at', { useTz: true }).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.index(['organization_id', 'id'], 'pipeline_runs_org_id_idx');
    table.index(
      ['organization_id', 'pipeline_id', 'id'],
      'pipeline_runs_org_pipeline_idx',
    );
    table.index(
      ['organization_id', 'attached_entity_id', 'id'],
      'pipeline_runs_org_entity_idx',
    );
    table.index(
      ['organization_id', 'status', 'id'],
      'pipeline_runs_org_status_idx',
    );
    table.index(['status', 'id'], 'pipeline_runs_status_idx');
  });

  await knex.schema.createTable('step_executions', table => {
    table.string('id', 36).primary();
    table.string('organization_id', 36).notNullable();
    table
      .string('pipeline_run_id', 36)
      .notNullable()
      .references('id')
      .inTable('pipeline_runs')
      .onDelete('CASCADE');
    table.integer('position').notNullable();
    table.string('type', 32).notNullable();
    table.string('name', 255).notNullable();
    table.text('config').nullable();
    table.string('status', 32).notNullable();
    table.integer('attempt_epoch').notNullable().defaultTo(1);
    table.string('lease_token_hash', 64).nullable();
    table.string('lease_runner_id', 128).nullable();
    table.timestamp('lease_expires_at', { useTz: true }).nullable();
    table.text('error').nullable();
    table.text('outputs').nullable();
    table.timestamp('started_at', { useTz: true }).nullable();
    table.timestamp('completed_at', { useTz: true }).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['pipeline_run_id', 'position'], {
      indexName: 'step_executions_run_position_uq',
    });
    table.index(
      ['organization_id', 'status', 'id'],
      'step_executions_claim_idx',
    );
    table.index(['status', 'lease_expires_at'], 'step_executions_lease_idx');
  });

  await knex.schema.createTable('step_logs', table => {
    table.bigIncrements('id').primary();
    table.string('organization_id', 36).notNullable();
    table
      .string('step_execution_id', 36)
      .notNullable()
      .references('id')
      .inTable('step_executions')
      .onDelete('CASCADE');
    table.integer('attempt_epoch').notNullable();
    table.timestamp('timestamp', { useTz: true }).notNullable();
    table.text('text').notNullable();
    table.index(['step_execution_id', 'id'], 'step_logs_step_id_idx');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('step_logs');
  await knex.schema.dropTable('step_executions');
  await knex.schema.dropTable('pipeline_runs');
  await knex.schema.dropTable('pipeline_versions');
  await knex.schema.dropTable('pipelines');
  await knex.schema.dropTable('stacks');
};
