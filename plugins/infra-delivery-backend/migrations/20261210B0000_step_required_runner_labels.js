// @ts-check

/** What a step's run's stack requires, as SQL over a `step_executions` row (null: none). */
const STACK_LABELS = `(SELECT stacks.runner_labels FROM pipeline_runs
  JOIN stacks ON stacks.id = pipeline_runs.attached_entity_id
   AND stacks.organization_id = pipeline_runs.organization_id
  WHERE pipeline_runs.id = step_executions.pipeline_run_id
    AND pipeline_runs.attached_entity_type = 'STACK')`;

/**
 * A copy of the runner labels a step's stack requires on the step (`required_runner_labels`,
 * the stack's `runner_labels` JSON; `[]` when any runner may), indexed with the queue, so that a
 * claim goes straight to the oldest step of each label set the runner carries. Before, it read
 * every older queued step's run and stack: a backlog of steps requiring a label no online runner
 * carries cost every other runner's claim 40–50 ms at 8,000 steps (docs/reliability.md, "Runner
 * labels route work"). The claim still checks the step it picks against its stack's labels, so
 * a copy that is out of date never hands a step to the wrong runner; see
 * `PipelineRunStore.lockNextClaimableStep`.
 *
 * The steps of runs not yet ended get their copy here; ended ones are never claimed again
 * unless retried, and a claim that finds nothing brings the copies of waiting steps up to date.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('step_executions', table => {
    // Never null: "any runner" is a label set like the others, an equality on the index that
    // the planners prefer to the claim index for the oldest steps any runner may take.
    table
      .text('required_runner_labels')
      .notNullable()
      .defaultTo('[]')
      .comment(
        "A copy of the step's stack's runner_labels, for the claim's index; []: any runner",
      );
  });
  await knex.raw(
    `UPDATE step_executions SET required_runner_labels = ${STACK_LABELS}
     WHERE status IN ('PENDING', 'QUEUED', 'RUNNING') AND ${STACK_LABELS} IS NOT NULL`,
  );
  await knex.schema.alterTable('step_executions', table => {
    table.index(
      ['organization_id', 'status', 'required_runner_labels', 'id'],
      'step_executions_claim_labels_idx',
    );
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('step_executions', table => {
    table.dropIndex(
      ['organization_id', 'status', 'required_runner_labels', 'id'],
      'step_executions_claim_labels_idx',
    );
  });
  // Natively (SQLite ≥ 3.35): Knex's SQLite fallback copies the table.
  await knex.raw(
    'ALTER TABLE step_executions DROP COLUMN required_runner_labels',
  );
};
