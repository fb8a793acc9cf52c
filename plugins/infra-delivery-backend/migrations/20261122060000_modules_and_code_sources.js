// @ts-check

/**
 * Code sources (repositories reached through a GitHub App installation) and modules: their
 * definitions (a directory of a code source), versions (the inputs of `module.yaml` at a ref)
 * and instances (a version deployed into an environment with its values).
 *
 * References that must stop a delete are left at NO ACTION rather than RESTRICT, so that
 * deleting an organization can still cascade through all of them in one statement.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('code_sources', table => {
    table.string('id', 36).primary();
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table.string('type', 32).notNullable();
    table
      .string('forge_host', 255)
      .notNullable()
      .comment(
        'Host of the integrations.github entry that reaches the repository',
      );
    table.string('forge_installation_id', 32).notNullable();
    table.string('git_repository_id', 64).notNullable();
    table.string('repo_name', 255).notNullable().comment('owner/name');
    table.string('repo_url', 1024).notNullable();
    table.string('default_branch', 255).notNullable();
    table.string('visibility', 16).notNullable();
    table.boolean('access_lost').notNullable().defaultTo(false);
    table.timestamp('access_checked_at', { useTz: true }).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['organization_id', 'forge_host', 'git_repository_id'], {
      indexName: 'code_sources_org_repository_uq',
    });
    table.index(['organization_id', 'id'], 'code_sources_org_id_idx');
  });

  await knex.schema.createTable('module_definitions', table => {
    table.string('id', 36).primary();
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table.string('given_id', 63).notNullable();
    table.string('name', 255).notNullable();
    table.text('description').nullable();
    table
      .string('code_source_id', 36)
      .notNullable()
      .references('id')
      .inTable('code_sources');
    table
      .string('path', 1024)
      .notNullable()
      .comment('Directory of module.yaml; empty for the root');
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['organization_id', 'given_id'], {
      indexName: 'module_definitions_org_given_id_uq',
    });
    table.index(['organization_id', 'id'], 'module_definitions_org_id_idx');
    table.index(
      ['organization_id', 'code_source_id', 'id'],
      'module_definitions_org_code_source_idx',
    );
  });

  await knex.schema.createTable('module_versions', table => {
    table.string('id', 36).primary();
    table.string('organization_id', 36).notNullable();
    table
      .string('module_definition_id', 36)
      .notNullable()
      .references('id')
      .inTable('module_definitions')
      .onDelete('CASCADE');
    table.string('version', 64).notNullable();
    table.string('ref', 255).notNullable();
    table.string('commit_sha', 64).notNullable();
    table
      .text('inputs')
      .notNullable()
      .comment('ModuleInput[] read from module.yaml, JSON');
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.unique(['module_definition_id', 'version'], {
      indexName: 'module_versions_definition_version_uq',
    });
    table.index(
      ['organization_id', 'module_definition_id', 'id'],
      'module_versions_org_definition_idx',
    );
  });

  await knex.schema.createTable('module_instances', table => {
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
    table
      .string('module_definition_id', 36)
      .notNullable()
      .references('id')
      .inTable('module_definitions');
    table
      .string('module_version_id', 36)
      .notNullable()
      .references('id')
      .inTable('module_versions');
    table.string('name', 255).notNullable();
    table
      .text('input_values')
      .notNullable()
      .comment('input id → value, defaults applied, JSON');
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['environment_id', 'name'], {
      indexName: 'module_instances_environment_name_uq',
    });
    table.index(['organization_id', 'id'], 'module_instances_org_id_idx');
    table.index(
      ['organization_id', 'environment_id', 'id'],
      'module_instances_org_environment_idx',
    );
    table.index(
      ['organization_id', 'module_definition_id', 'id'],
      'module_instances_org_definition_idx',
    );
    table.index(
      ['organization_id', 'module_version_id', 'id'],
      'module_instances_org_version_idx',
    );
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('module_instances');
  await knex.schema.dropTable('module_versions');
  await knex.schema.dropTable('module_definitions');
  await knex.schema.dropTable('code_sources');
};
