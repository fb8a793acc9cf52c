// @ts-check

/**
 * The access epoch: one counter that every change of who may call the API as whom moves (a
 * member's role changed or removed, an API key deleted, a service account deleted), in the
 * transaction of that change. Each backend instance remembers the callers it resolved with
 * the epoch it read before resolving them, and reads the epoch on every request: a caller
 * remembered under an older epoch is resolved again, on every instance sharing the database.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('access_epoch', table => {
    table.comment(
      'One row: moved by every change to members, API keys and service accounts',
    );
    table.integer('id').primary().comment('Always 1');
    table.bigInteger('epoch').notNullable().defaultTo(0);
  });
  await knex('access_epoch').insert({ id: 1, epoch: 0 });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('access_epoch');
};
