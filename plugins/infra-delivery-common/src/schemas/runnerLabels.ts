import { z } from 'zod';

/**
 * One label a stack may require of the runner that executes its steps, e.g. `env=prod`,
 * `aws-account=123456789012`, `vpc`: a letter or digit, then up to 63 of letters, digits and
 * `_ . : = / -`. No spaces nor commas: the reference runner takes its labels as one
 * comma-separated `--labels` value, and a label it cannot be given would keep a stack waiting.
 */
export const RUNNER_LABEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:=/-]{0,63}$/;

/** The most labels a stack may require (and a runner may carry). */
export const MAX_RUNNER_LABELS = 32;

export const runnerLabelSchema = z
  .string()
  .regex(
    RUNNER_LABEL_PATTERN,
    'a label is a letter or digit, then up to 63 letters, digits or _ . : = / - (no spaces, no commas), e.g. env=prod',
  );

/**
 * The labels a stack requires of the runner that claims its steps: only a runner that carries
 * every one of them (`--labels` of the reference runner) is handed them. Empty: any runner.
 */
export const requiredRunnerLabelsSchema = z
  .array(runnerLabelSchema)
  .max(MAX_RUNNER_LABELS)
  .refine(labels => new Set(labels).size === labels.length, {
    message: 'each label once',
  });
