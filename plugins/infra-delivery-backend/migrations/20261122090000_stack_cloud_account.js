// @ts-check

/**
 * The cloud account a stack deploys into (optional). Deleting the account detaches its stacks
 * rather than deleting them: the stacks' state and history stay.
 *
 * On SQLite Knex would add the foreign key by rebuilding the table (copy every row, drop the
 * old table, rename). Inside the migration's transaction foreign keys cannot be switched off,
 * so that drop would fire the ON DELETE actions of any table referencing stacks. SQLite adds a
 * column with a REFERENCES clause in place, so there the column is added (and dropped) with
 * plain ALTER TABLE statements.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  if (isSqlite(knex)) {
    await knex.raw(
      'ALTER TABLE stacks ADD COLUMN cloud_account_id varchar(36) NULL REFERENCES cloud_accounts (id) ON DELETE SET NULL',
    );
  } else {
    await knex.schema.alterTable('stacks', table => {
      table
        .string('cloud_account_id', 36)
        .nullable()
        .references('id')
        .inTable('cloud_accounts')
        .onDelete('SET NULL')
        .comment('The cloud account the stack deploys into');
    });
  }
  await knex.schema.alterTable('stacks', table => {
    // Deleting an account looks its stacks up by this column.
    table.index(['cloud_account_id'], 'stacks_cloud_account_idx');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('stacks', table => {
    table.dropIndex(['cloud_account_id'], 'stacks_cloud_account_idx');
  });
  if (isSqlite(knex)) {
    await knex.raw('ALTER TABLE stacks DROP COLUMN cloud_account_id');
  } else {
    await knex.schema.alterTable('stacks', table => {
      table.dropForeign(['cloud_account_id']);
      table.dropColumn('cloud_account_id');
    });
  }
};

/** @param {import('knex').Knex} knex */
function isSqlite(knex) {
  return String(knex.client.config.client).includes('sqlite');
}
