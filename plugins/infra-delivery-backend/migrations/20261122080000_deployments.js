// @ts-check

/**
 * Container deployments of ECS services (with rollback), and the infrastructure events
 * EventBridge delivers about them.
 *
 * A partial unique index keeps one PENDING or IN_PROGRESS deployment per service: two
 * instances (or two callers) starting a deployment of one service cannot both win.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('deployments', table => {
    table.comment('Deployments of ECS services, newest first by id');
    table.string('id', 36).primary();
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table
      .string('project_id', 36)
      .nullable()
      .comment('Null only for a deployment detected from events');
    table.string('environment_id', 36).nullable();
    table.string('module_instance_id', 36).nullable();
    table
      .string('cloud_account_id', 36)
      .notNullable()
      .references('id')
      .inTable('cloud_accounts')
      .onDelete('CASCADE');
    table.string('region', 32).notNullable();
    table
      .string('cluster_name', 255)
      .notNullable()
      .comment('Cluster name, also when the caller gave an ARN');
    table.string('service_name', 255).notNullable();
    table
      .string('status', 16)
      .notNullable()
      .comment(
        'PENDING, IN_PROGRESS, SUCCEEDED, FAILED, ROLLED_BACK or CANCELLED',
      );
    table.string('trigger_source', 16).notNullable();
    table.text('description').notNullable();
    table
      .string('external_deployment_id', 255)
      .nullable()
      .comment('The ECS deployment id (ecs-svc/…)');
    table.string('resource_ref', 2048).nullable();
    table.string('rollback_to_deployment_id', 36).nullable();
    table.string('redeploy_of_deployment_id', 36).nullable();
    table
      .text('data')
      .notNullable()
      .comment(
        'JSON: clusterRef, serviceRef, task definitions, serviceDeploymentState, events, …',
      );
    table.text('error').nullable().comment('JSON ErrorBody');
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.timestamp('started_at', { useTz: true }).nullable();
    table.timestamp('completed_at', { useTz: true }).nullable();
    table.index(['organization_id', 'id'], 'deployments_org_id_idx');
    table.index(
      ['organization_id', 'environment_id', 'id'],
      'deployments_org_env_id_idx',
    );
    table.index(
      ['organization_id', 'module_instance_id', 'id'],
      'deployments_org_module_instance_id_idx',
    );
    table.index(
      ['organization_id', 'status', 'id'],
      'deployments_org_status_id_idx',
    );
    table.index(['status', 'id'], 'deployments_status_id_idx');
    table.index(
      [
        'organization_id',
        'cloud_account_id',
        'region',
        'cluster_name',
        'service_name',
        'id',
      ],
      'deployments_org_service_id_idx',
    );
    table.index(
      ['organization_id', 'cluster_name', 'service_name', 'id'],
      'deployments_org_cluster_service_id_idx',
    );
    table.index(
      ['organization_id', 'external_deployment_id'],
      'deployments_org_external_id_idx',
    );
  });
  await knex.raw(
    `CREATE UNIQUE INDEX deployments_one_in_flight_per_service_uq
       ON deployments (organization_id, cloud_account_id, region, cluster_name, service_name)
       WHERE status IN ('PENDING', 'IN_PROGRESS')`,
  );

  await knex.schema.createTable('infrastructure_events', table => {
    table.comment('ECS events from EventBridge, one row per organization');
    table.string('id', 36).primary();
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table
      .string('cloud_account_id', 36)
      .notNullable()
      .references('id')
      .inTable('cloud_accounts')
      .onDelete('CASCADE');
    table.string('event_id', 128).notNullable().comment('EventBridge id');
    table.string('kind', 48).notNullable();
    table.string('detail_type', 128).notNullable();
    table.string('source', 128).notNullable();
    table.string('region', 32).notNullable();
    table.timestamp('event_time', { useTz: true }).notNullable();
    table
      .string('task_ref', 2048)
      .nullable()
      .comment('Task ARN of a task state change');
    table
      .integer('task_version')
      .nullable()
      .comment('detail.version of a task state change');
    table.string('module_deployment_id', 36).nullable();
    table.string('deployment_resource_id', 36).nullable();
    table.text('data').notNullable().comment('JSON');
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.unique(['organization_id', 'event_id'], {
      indexName: 'infrastructure_events_org_event_uq',
    });
    table.index(
      ['organization_id', 'module_deployment_id', 'kind', 'id'],
      'infrastructure_events_org_deployment_idx',
    );
    table.index(
      ['organization_id', 'deployment_resource_id', 'kind', 'id'],
      'infrastructure_events_org_resource_idx',
    );
    table.index(
      ['organization_id', 'task_ref', 'task_version'],
      'infrastructure_events_org_task_idx',
    );
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('infrastructure_events');
  await knex.raw(
    'DROP INDEX IF EXISTS deployments_one_in_flight_per_service_uq',
  );
  await knex.schema.dropTable('deployments');
};
