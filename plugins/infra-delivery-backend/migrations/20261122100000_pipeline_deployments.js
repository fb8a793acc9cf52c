// @ts-check

/**
 * Deployments started by a pipeline's container.deploy step. The unique index on the step
 * execution and its attempt is what makes the in-process step executor start exactly one
 * deployment per attempt, whichever backend instance gets there first.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('deployments', table => {
    table
      .string('pipeline_run_id', 36)
      .nullable()
      .comment('The run whose container.deploy step started the deployment');
    table.string('step_execution_id', 36).nullable();
    table
      .integer('step_attempt_epoch')
      .nullable()
      .comment('The attempt of the step that started the deployment');
    table.unique(['step_execution_id', 'step_attempt_epoch'], {
      indexName: 'deployments_step_attempt_uq',
    });
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('deployments', table => {
    table.dropUnique(
      ['step_execution_id', 'step_attempt_epoch'],
      'deployments_step_attempt_uq',
    );
    table.dropColumn('step_attempt_epoch');
    table.dropColumn('step_execution_id');
    table.dropColumn('pipeline_run_id');
  });
};
