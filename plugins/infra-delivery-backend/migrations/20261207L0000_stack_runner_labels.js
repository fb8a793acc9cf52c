// @ts-check

/**
 * The labels a runner must carry to be handed a stack's plan and apply steps (`runner_labels`,
 * a JSON array of strings, sorted; null when any runner may). A claim reads it through the
 * step's run, so that changing a stack's labels routes its steps already waiting too. No index:
 * the claim looks it up by the stack's primary key, for the oldest queued steps only.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('stacks', table => {
    table
      .text('runner_labels')
      .nullable()
      .comment(
        'JSON array of the labels a runner must carry to claim the stack steps; null: any runner',
      );
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('stacks', table => {
    table.dropColumn('runner_labels');
  });
};
