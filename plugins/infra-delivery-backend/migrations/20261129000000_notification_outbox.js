// @ts-check

/**
 * Notifications to send, kept until the notifications backend takes them. They were sent
 * inline after a run's or a deployment's change: a catalog or notifications backend that was
 * starting (503) or down lost them, and an approval or a runner's report waited for the send.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('notification_outbox', table => {
    table.string('id', 36).primary();
    table.string('kind', 32).notNullable();
    table.text('recipients').notNullable().comment('JSON: catalog entity refs');
    table.text('payload').notNullable().comment('JSON: the notification');
    table
      .text('recipient_lookup')
      .nullable()
      .comment('JSON: more recipients, looked up in the catalog when sent');
    table.integer('attempts').notNullable().defaultTo(0);
    table
      .timestamp('next_attempt_at', { useTz: true })
      .notNullable()
      .comment('Due from then; a claim moves it on, so one sender at a time');
    table.text('last_error').nullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.index(['next_attempt_at', 'id'], 'notification_outbox_due_idx');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('notification_outbox');
};
