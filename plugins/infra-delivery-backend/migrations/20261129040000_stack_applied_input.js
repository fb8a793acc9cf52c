// @ts-check

/**
 * The input a stack was last applied with. A run of the stack given no input (the portal's
 * Plan & apply, a drift check, a reconcile, a git push) takes it: they planned with the
 * module's defaults before, so a drift check reported the approved input as drift and a
 * reconcile applied the defaults over it.
 *
 * Filled from each stack's latest run of its change pipeline that succeeded (the run's input,
 * null where it had none: the module's defaults).
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('stacks', table => {
    table
      .text('applied_input')
      .nullable()
      .comment('JSON input of the latest apply that succeeded');
  });
  await knex('stacks').update({
    applied_input: knex('pipeline_runs')
      .select('pipeline_runs.input')
      .whereRaw('pipeline_runs.attached_entity_id = stacks.id')
      .whereRaw('pipeline_runs.pipeline_id = stacks.change_pipeline_id')
      .where('pipeline_runs.status', 'SUCCEEDED')
      .where('pipeline_runs.kind', 'STANDARD')
      .orderBy('pipeline_runs.completed_at', 'desc')
      .orderBy('pipeline_runs.id', 'desc')
      .limit(1),
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('stacks', table => {
    table.dropColumn('applied_input');
  });
};
