// @ts-check

/**
 * Identity and tenancy: users, memberships (and invitations), service accounts, API keys,
 * projects, environments, default-value definitions, and the service's own secrets.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('organizations', table => {
    table
      .boolean('is_portal')
      .notNullable()
      .defaultTo(false)
      .comment('The organization Backstage users are provisioned into');
  });

  await knex.schema.createTable('service_secrets', table => {
    table.comment('Signing keys shared by every instance of the backend');
    table.string('name', 64).primary();
    table.string('value', 255).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('users', table => {
    table.string('id', 36).primary();
    table.string('email', 320).notNullable();
    table
      .string('password_hash', 255)
      .nullable()
      .comment('scrypt; null for portal users');
    table.string('backstage_user_ref', 255).nullable();
    table.string('full_name', 255).nullable();
    table.string('short_name', 255).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['email'], { indexName: 'users_email_uq' });
    table.unique(['backstage_user_ref'], {
      indexName: 'users_backstage_ref_uq',
    });
  });

  await knex.schema.createTable('memberships', table => {
    table.string('id', 36).primary();
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table
      .string('user_id', 36)
      .nullable()
      .references('id')
      .inTable('users')
      .onDelete('CASCADE')
      .comment('null while the invitation is pending');
    table.string('email', 320).notNullable();
    table.string('role', 16).notNullable();
    table.string('invitation_id', 36).nullable();
    table.string('invited_email', 320).nullable();
    table.string('invitation_token_hash', 64).nullable();
    table.timestamp('invitation_expires_at', { useTz: true }).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['organization_id', 'email'], {
      indexName: 'memberships_org_email_uq',
    });
    table.index(['organization_id', 'id'], 'memberships_org_id_idx');
    table.index(['user_id'], 'memberships_user_idx');
    table.unique(['invitation_token_hash'], {
      indexName: 'memberships_invitation_token_uq',
    });
  });

  await knex.schema.createTable('service_accounts', table => {
    table.string('id', 36).primary();
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table.string('name', 255).notNullable();
    table.text('description').nullable();
    table.string('role', 16).notNullable();
    table.string('created_by_id', 36).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.index(['organization_id', 'id'], 'service_accounts_org_id_idx');
  });

  await knex.schema.createTable('api_keys', table => {
    table.string('id', 36).primary();
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table
      .string('lookup_id', 32)
      .notNullable()
      .comment('public part of the key');
    table
      .string('secret_hash', 64)
      .notNullable()
      .comment('SHA-256 of the whole key');
    table.string('key_suffix', 8).notNullable();
    table.string('name', 255).notNullable();
    table.text('description').nullable();
    table.string('owner_type', 16).notNullable();
    table.string('owner_id', 36).notNullable();
    table.string('created_by_id', 36).notNullable();
    table.timestamp('expires_at', { useTz: true }).nullable();
    table.timestamp('last_used_at', { useTz: true }).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['lookup_id'], { indexName: 'api_keys_lookup_uq' });
    table.index(['organization_id', 'id'], 'api_keys_org_id_idx');
    table.index(
      ['organization_id', 'owner_type', 'owner_id', 'id'],
      'api_keys_owner_idx',
    );
  });

  await knex.schema.createTable('projects', table => {
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
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['organization_id', 'given_id'], {
      indexName: 'projects_org_given_id_uq',
    });
    table.index(['organization_id', 'id'], 'projects_org_id_idx');
  });

  await knex.schema.createTable('environments', table => {
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
      .inTable('projects')
      .onDelete('RESTRICT');
    table.string('given_id', 63).notNullable();
    table.string('name', 255).notNullable();
    table.text('description').nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['project_id', 'given_id'], {
      indexName: 'environments_project_given_id_uq',
    });
    table.index(
      ['organization_id', 'project_id', 'id'],
      'environments_org_project_idx',
    );
  });

  await knex.schema.createTable('default_value_definitions', table => {
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
    table.text('schema').notNullable().comment('ValueSchema as JSON');
    table.string('created_by_type', 16).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['organization_id', 'given_id'], {
      indexName: 'default_value_definitions_org_given_id_uq',
    });
    table.index(
      ['organization_id', 'id'],
      'default_value_definitions_org_id_idx',
    );
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('default_value_definitions');
  await knex.schema.dropTable('environments');
  await knex.schema.dropTable('projects');
  await knex.schema.dropTable('api_keys');
  await knex.schema.dropTable('service_accounts');
  await knex.schema.dropTable('memberships');
  await knex.schema.dropTable('users');
  await knex.schema.dropTable('service_secrets');
  await knex.schema.alterTable('organizations', table => {
    table.dropColumn('is_portal');
  });
};
