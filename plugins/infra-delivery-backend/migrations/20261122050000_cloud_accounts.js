// @ts-check

/**
 * Cloud accounts, connected through template-based onboarding, and the ids of onboarding JWTs
 * already used, so that each token connects an account at most once.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('cloud_accounts', table => {
    table.comment('AWS accounts the organization connects through onboarding');
    table.string('id', 36).primary();
    table
      .string('organization_id', 36)
      .notNullable()
      .references('id')
      .inTable('organizations')
      .onDelete('CASCADE');
    table.string('given_id', 63).notNullable();
    table.string('name', 255).notNullable();
    table.string('cloud_id', 12).notNullable().comment('The AWS account id');
    table
      .string('status', 32)
      .notNullable()
      .comment('AWAITING_CONNECTION or CONNECTED');
    table
      .string('cloud_ref', 2048)
      .nullable()
      .comment('ARN of the cross-account role');
    table
      .string('external_id', 64)
      .notNullable()
      .comment('sts:ExternalId the role requires');
    table.string('role_version', 32).nullable();
    table.string('template_stack_id', 1024).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.timestamp('updated_at', { useTz: true }).notNullable();
    table.unique(['organization_id', 'given_id'], {
      indexName: 'cloud_accounts_org_given_id_uq',
    });
    table.index(['organization_id', 'id'], 'cloud_accounts_org_id_idx');
  });

  await knex.schema.createTable('cloud_onboarding_token_uses', table => {
    table.comment('Onboarding JWT ids already used (one-time tokens)');
    table.string('jti', 64).primary();
    table
      .string('cloud_account_id', 36)
      .notNullable()
      .references('id')
      .inTable('cloud_accounts')
      .onDelete('CASCADE');
    table.timestamp('used_at', { useTz: true }).notNullable();
    table
      .timestamp('expires_at', { useTz: true })
      .notNullable()
      .comment('After this the token is refused anyway and the row can go');
    table.index(['expires_at'], 'cloud_onboarding_token_uses_expiry_idx');
    table.index(['cloud_account_id'], 'cloud_onboarding_token_uses_acct_idx');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('cloud_onboarding_token_uses');
  await knex.schema.dropTable('cloud_accounts');
};
