import {
  MAX_DRIFT_CHECK_INTERVAL_HOURS,
  MIN_DRIFT_CHECK_INTERVAL_HOURS,
  normalizeRepositoryPath,
  normalizeRunnerLabels,
  OperationRequest,
  operations,
  Stack,
  typedRunnerLabels,
} from '@infra-delivery/plugin-infra-delivery-common';

/** What `PATCH /stacks/{id}` takes: the settings to change, and no others. */
export type StackSettingsChange = OperationRequest<
  typeof operations.updateStack
>['body']['data'];

/** The settings of a stack as the fields of its settings dialog hold them. */
export interface StackSettingsForm {
  name: string;
  description: string;
  /** '' for a stack without a code source (its code is in the runner's source root). */
  codeSourceId: string;
  path: string;
  /** '' for none. */
  cloudAccountId: string;
  autoApprove: boolean;
  /** Hours as typed; '' for no scheduled drift checks. */
  driftCheckIntervalHours: string;
  /** The runner labels the stack requires, as typed (comma-separated); '' for any runner. */
  runnerLabels: string;
}

/** The settings the dialog edits, by the field name the service's errors give them. */
export const STACK_SETTING_LABELS: Record<keyof StackSettingsForm, string> = {
  name: 'name',
  description: 'description',
  codeSourceId: 'code source',
  path: 'working directory',
  cloudAccountId: 'cloud account',
  autoApprove: 'approval',
  driftCheckIntervalHours: 'drift check schedule',
  runnerLabels: 'runner labels',
};

export function settingsFormOf(stack: Stack): StackSettingsForm {
  return {
    name: stack.name,
    description: stack.description ?? '',
    codeSourceId: stack.codeSourceId ?? '',
    path: stack.path ?? '',
    cloudAccountId: stack.cloudAccountId ?? '',
    autoApprove: stack.autoApprove,
    driftCheckIntervalHours: stack.driftCheckIntervalHours?.toString() ?? '',
    runnerLabels: stack.runnerLabels.join(', '),
  };
}

/** Why the typed drift check interval cannot be sent, or undefined when it can. */
export function intervalProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') {
    return undefined;
  }
  const hours = Number(trimmed);
  if (
    !/^\d+$/.test(trimmed) ||
    hours < MIN_DRIFT_CHECK_INTERVAL_HOURS ||
    hours > MAX_DRIFT_CHECK_INTERVAL_HOURS
  ) {
    return `Whole hours from ${MIN_DRIFT_CHECK_INTERVAL_HOURS} to ${MAX_DRIFT_CHECK_INTERVAL_HOURS}, or empty for none`;
  }
  return undefined;
}

/**
 * What Save sends: only the settings that differ from the stack's, so that a setting someone
 * else changed meanwhile is not put back. A code source cannot be taken away (the service has
 * no way to), so an empty choice sends nothing.
 */
export function settingsChange(
  stack: Stack,
  form: StackSettingsForm,
): StackSettingsChange {
  const current = settingsFormOf(stack);
  const change: StackSettingsChange = {};
  const name = form.name.trim();
  if (name !== current.name) change.name = name;
  if (form.description !== current.description) {
    change.description = form.description;
  }
  if (form.codeSourceId && form.codeSourceId !== current.codeSourceId) {
    change.codeSourceId = form.codeSourceId;
  }
  const path = normalizeRepositoryPath(form.path.trim());
  if (path !== normalizeRepositoryPath(current.path)) change.path = path;
  if (form.cloudAccountId !== current.cloudAccountId) {
    change.cloudAccountId = form.cloudAccountId || null;
  }
  if (form.autoApprove !== current.autoApprove) {
    change.autoApprove = form.autoApprove;
  }
  const hours = form.driftCheckIntervalHours.trim();
  if (hours !== current.driftCheckIntervalHours) {
    change.driftCheckIntervalHours = hours === '' ? null : Number(hours);
  }
  const labels = typedRunnerLabels(form.runnerLabels);
  if (
    labels.join(',') !== normalizeRunnerLabels(stack.runnerLabels).join(',')
  ) {
    change.runnerLabels = labels;
  }
  return change;
}

/** "working directory and approval": the settings a change names, in words. */
export function changedSettings(change: StackSettingsChange): string {
  const labels = (Object.keys(change) as (keyof StackSettingsForm)[]).map(
    key => STACK_SETTING_LABELS[key] ?? key,
  );
  return labels.length > 1
    ? `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`
    : labels.join('');
}
