import { z } from 'zod';
import { descriptionSchema } from './primitives';

/**
 * What the stack's latest drift check found: `IN_SYNC` when its plan changed nothing,
 * `DRIFTED` when the plan would change resources, `UNKNOWN` before the first check and after a
 * check that could not finish.
 */
export const DRIFT_STATUSES = ['IN_SYNC', 'DRIFTED', 'UNKNOWN'] as const;
export const driftStatusSchema = z
  .enum(DRIFT_STATUSES)
  .meta({ id: 'DriftStatus' });
export type DriftStatus = z.infer<typeof driftStatusSchema>;

/** Drift checks run at most hourly and at least monthly. */
export const MIN_DRIFT_CHECK_INTERVAL_HOURS = 1;
export const MAX_DRIFT_CHECK_INTERVAL_HOURS = 24 * 31;

export const driftCheckIntervalHoursSchema = z
  .number()
  .int()
  .min(MIN_DRIFT_CHECK_INTERVAL_HOURS)
  .max(MAX_DRIFT_CHECK_INTERVAL_HOURS)
  .describe(
    'Hours between scheduled drift checks of the stack (1 = hourly); absent: no scheduled checks',
  );

/**
 * What a run is for. `DRIFT_CHECK` and `PULL_REQUEST_PLAN` runs plan the stack's change
 * pipeline without applying it: a drift check's plan decides the stack's drift status, a pull
 * request plan's is reported to the pull request.
 */
export const RUN_KINDS = [
  'STANDARD',
  'DRIFT_CHECK',
  'PULL_REQUEST_PLAN',
] as const;

/** Kinds of run that only plan. */
export const PLAN_ONLY_RUN_KINDS: readonly RunKind[] = [
  'DRIFT_CHECK',
  'PULL_REQUEST_PLAN',
];
export const runKindSchema = z.enum(RUN_KINDS).meta({ id: 'RunKind' });
export type RunKind = z.infer<typeof runKindSchema>;

/** Who or what started a run. */
export const RUN_TRIGGER_SOURCES = [
  'API',
  'DRIFT_SCHEDULE',
  'DRIFT_RECONCILE',
  'GIT_PUSH',
  'PULL_REQUEST',
] as const;
export const runTriggerSourceSchema = z
  .enum(RUN_TRIGGER_SOURCES)
  .meta({ id: 'RunTriggerSource' });
export type RunTriggerSource = z.infer<typeof runTriggerSourceSchema>;

export const reconcileStackRequestSchema = z.object({
  data: z
    .object({ description: descriptionSchema.optional() })
    .optional()
    .default({}),
});

export const startDriftCheckRequestSchema = reconcileStackRequestSchema;
