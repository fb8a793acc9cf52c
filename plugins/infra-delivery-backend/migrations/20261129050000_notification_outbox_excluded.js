// @ts-check

/**
 * People a notification leaves out although they own what it tells of: the person whose
 * decision it reports. "The plan was approved" replaces "a plan waits for your approval" for
 * the stack's owners; the approver, who knows, keeps the one they had instead of having it
 * made unread again.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('notification_outbox', table => {
    table
      .text('excluded_recipients')
      .nullable()
      .comment('JSON: catalog entity refs of users left out');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('notification_outbox', table => {
    table.dropColumn('excluded_recipients');
  });
};
