// @ts-check

/**
 * Self-hosted git-forge servers with their OAuth apps, members' logins to them, and the OAuth
 * states already used (so that each works once). Secrets are stored sealed (AES-256-GCM).
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('git_self_hosted_servers', table => {
    table.string('id', 36).primary();
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table.string('name', 255).notNullable();
    table.string('base_url', 2048).notNullable();
    table.string('client_id', 255).notNullable();
    table
      .text('client_secret_sealed')
      .notNullable()
      .comment('AES-256-GCM, see SecretCipher');
    table.string('created_by_id', 36).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['organization_id', 'name'], {
      indexName: 'git_self_hosted_servers_org_name_uq',
    });
    table.index(
      ['organization_id', 'id'],
      'git_self_hosted_servers_org_id_idx',
    );
  });

  await knex.schema.createTable('git_self_hosted_logins', table => {
    table.comment('OAuth tokens of members, one per member and server');
    table
      .string('server_id', 36)
      .notNullable()
      .references('id')
      .inTable('git_self_hosted_servers')
      .onDelete('CASCADE');
    table
      .string('membership_id', 36)
      .notNullable()
      .references('id')
      .inTable('memberships')
      .onDelete('CASCADE');
    table.string('organization_id', 36).notNullable();
    table
      .text('access_token_sealed')
      .notNullable()
      .comment('AES-256-GCM, see SecretCipher');
    table.string('scopes', 1024).notNullable();
    table.timestamp('expires_at', { useTz: true }).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.primary(['server_id', 'membership_id'], 'git_self_hosted_logins_pk');
    table.index(['membership_id'], 'git_self_hosted_logins_membership_idx');
  });

  await knex.schema.createTable('git_self_hosted_oauth_states', table => {
    table.comment('OAuth login states already used; kept until they expire');
    table.string('state_id', 36).primary();
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('used_at', { useTz: true }).notNullable();
    table.index(['expires_at'], 'git_self_hosted_oauth_states_expiry_idx');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('git_self_hosted_oauth_states');
  await knex.schema.dropTable('git_self_hosted_logins');
  await knex.schema.dropTable('git_self_hosted_servers');
};
