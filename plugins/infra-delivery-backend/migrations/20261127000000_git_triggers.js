// @ts-check

/**
 * Git-driven runs. A stack may follow a branch of its code source (`git_trigger`); GitHub App
 * webhook deliveries are recorded once by their `X-GitHub-Delivery` and processed afterwards,
 * with one outcome per organization they concerned. The newest head seen per stack and branch
 * or pull request keeps late deliveries from starting stale runs. A pull request plan reports
 * to a GitHub check run (and optionally one comment), kept per run so reporting can be retried.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('stacks', table => {
    table
      .text('git_trigger')
      .nullable()
      .comment(
        'JSON: branch, pathFilters, pushRuns, pullRequestPlans, pullRequestComments',
      );
    table.index(['code_source_id'], 'stacks_code_source_idx');
  });
  await knex.schema.alterTable('code_sources', table => {
    table.index(
      ['forge_host', 'git_repository_id'],
      'code_sources_host_repository_idx',
    );
    table.index(
      ['forge_host', 'forge_installation_id'],
      'code_sources_host_installation_idx',
    );
  });
  await knex.schema.alterTable('pipeline_runs', table => {
    table
      .text('git_source')
      .nullable()
      .comment(
        'JSON: the commit, push or pull request a git-triggered run works on',
      );
  });
  if (String(knex.client.config.client).startsWith('pg')) {
    // PULL_REQUEST_PLAN is longer than the column was made for (SQLite does not check lengths).
    await knex.raw(
      'ALTER TABLE pipeline_runs ALTER COLUMN kind TYPE varchar(32)',
    );
  }

  await knex.schema.createTable('webhook_deliveries', table => {
    table.string('id', 36).primary();
    table
      .string('delivery_guid', 64)
      .notNullable()
      .comment('X-GitHub-Delivery');
    table.string('forge_host', 255).notNullable();
    table.string('app_id', 32).notNullable();
    table.string('event', 64).notNullable();
    table.string('action', 64).nullable();
    table.string('installation_id', 32).nullable();
    table.string('repository_id', 32).nullable();
    table.string('repository_full_name', 255).nullable();
    table
      .text('payload')
      .nullable()
      .comment('Kept until the delivery is processed');
    table
      .string('status', 16)
      .notNullable()
      .comment('PENDING, PROCESSING, DONE or FAILED');
    table.integer('attempts').notNullable().defaultTo(0);
    table.timestamp('claimed_at', { useTz: true }).nullable();
    table.timestamp('received_at', { useTz: true }).notNullable();
    table.timestamp('processed_at', { useTz: true }).nullable();
    table.text('error').nullable();
    table.unique(['delivery_guid'], {
      indexName: 'webhook_deliveries_delivery_guid_uq',
    });
    table.index(['status', 'id'], 'webhook_deliveries_status_idx');
  });

  await knex.schema.createTable('webhook_delivery_outcomes', table => {
    table.string('id', 36).primary();
    table
      .string('webhook_delivery_id', 36)
      .notNullable()
      .references('id')
      .inTable('webhook_deliveries')
      .onDelete('CASCADE');
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table.string('outcome', 32).notNullable();
    table.text('reason').nullable();
    table.text('started_run_ids').nullable().comment('JSON array');
    table.text('cancelled_run_ids').nullable().comment('JSON array');
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['webhook_delivery_id', 'organization_id'], {
      indexName: 'webhook_delivery_outcomes_delivery_org_uq',
    });
    table.index(['organization_id', 'id'], 'webhook_delivery_outcomes_org_idx');
  });

  await knex.schema.createTable('git_trigger_heads', table => {
    table
      .string('stack_id', 36)
      .notNullable()
      .references('id')
      .inTable('stacks')
      .onDelete('CASCADE');
    table
      .string('head_key', 300)
      .notNullable()
      .comment('push:<branch> or pull:<number>');
    table.string('sha', 64).notNullable();
    table.string('previous_sha', 64).nullable();
    table
      .timestamp('observed_at', { useTz: true })
      .notNullable()
      .comment(
        "GitHub's own time of the head: the commit's or the pull request's updated_at",
      );
    table.boolean('closed').notNullable().defaultTo(false);
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.primary(['stack_id', 'head_key']);
  });

  await knex.schema.createTable('github_check_runs', table => {
    table.string('id', 36).primary();
    table.string('organization_id', 36).notNullable();
    table
      .string('pipeline_run_id', 36)
      .notNullable()
      .references('id')
      .inTable('pipeline_runs')
      .onDelete('CASCADE');
    table.string('repo_url', 1024).notNullable();
    table.string('installation_id', 32).notNullable();
    table.string('head_sha', 64).notNullable();
    table.integer('pull_request_number').notNullable();
    table.boolean('comment_on_pull_request').notNullable();
    table.string('check_run_id', 32).nullable().comment("GitHub's id");
    table.string('comment_id', 32).nullable().comment("GitHub's id");
    table
      .string('reported_state', 32)
      .nullable()
      .comment(
        'What GitHub last accepted: queued, in_progress or completed:<conclusion>',
      );
    table.integer('failures').notNullable().defaultTo(0);
    table.text('last_error').nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['pipeline_run_id'], {
      indexName: 'github_check_runs_run_uq',
    });
    table.index(['reported_state', 'id'], 'github_check_runs_state_idx');
  });
};

/**
 * @param {import('knex').Knex} knex
 */
exports.down = async function down(knex) {
  await knex.schema.dropTable('github_check_runs');
  await knex.schema.dropTable('git_trigger_heads');
  await knex.schema.dropTable('webhook_delivery_outcomes');
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.alterTable('pipeline_runs', table => {
    table.dropColumn('git_source');
  });
  await knex.schema.alterTable('code_sources', table => {
    table.dropIndex([], 'code_sources_host_installation_idx');
    table.dropIndex([], 'code_sources_host_repository_idx');
  });
  await knex.schema.alterTable('stacks', table => {
    table.dropIndex([], 'stacks_code_source_idx');
    table.dropColumn('git_trigger');
  });
};
