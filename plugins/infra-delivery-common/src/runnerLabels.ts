import {
  MAX_RUNNER_LABELS,
  RUNNER_LABEL_PATTERN,
} from './schemas/runnerLabels';

/**
 * The one rule by which runner labels route work: a runner may claim a step whose stack
 * requires labels only if it carries every one of them (a stack that requires none: any
 * runner). The service's claim applies it in SQL; the wait a run reports, the portal's notices
 * and the Runners card read it from here.
 */
export function carriesRunnerLabels(
  runnerLabels: readonly string[],
  required: readonly string[] | undefined,
): boolean {
  if (!required || required.length === 0) {
    return true;
  }
  const carried = new Set(runnerLabels);
  return required.every(label => carried.has(label));
}

/** Labels as stored and compared: each once, sorted. */
export function normalizeRunnerLabels(labels: readonly string[]): string[] {
  return [...new Set(labels)].sort();
}

/**
 * The runner labels a person typed, each once and sorted: separated by commas or spaces
 * (`env=prod, region=eu`). The stack settings dialog, the template's field and the template's
 * action read typed labels with it.
 */
export function typedRunnerLabels(text: string): string[] {
  return normalizeRunnerLabels(text.split(/[\s,]+/).filter(Boolean));
}

/**
 * Why typed runner labels cannot be required of a stack, or undefined when they can: what
 * a person reads beside the field (the service's own rule is `requiredRunnerLabelsSchema`).
 */
export function runnerLabelsProblem(text: string): string | undefined {
  const labels = typedRunnerLabels(text);
  const bad = labels.find(label => !RUNNER_LABEL_PATTERN.test(label));
  if (bad !== undefined) {
    return `"${bad}" is not a label: a letter or digit, then letters, digits or _ . : = / - (env=prod)`;
  }
  if (labels.length > MAX_RUNNER_LABELS) {
    return `At most ${MAX_RUNNER_LABELS} labels`;
  }
  return undefined;
}

/** Labels as people read them: `env=prod, region=eu`. */
export function formatRunnerLabels(labels: readonly string[]): string {
  return labels.join(', ');
}

/** The reference runner's argument that makes it carry `labels`: `--labels env=prod,region=eu`. */
export function runnerLabelsArgument(labels: readonly string[]): string {
  return `--labels ${labels.join(',')}`;
}

/**
 * Why a step waits although runners are online: none of them carries all the labels its stack
 * requires. Names the labels each carries (at most five, then how many more), and how to start
 * one that does.
 */
export function noRunnerWithLabelsReason(
  required: readonly string[],
  onlineRunnerLabels: readonly (readonly string[])[],
): string {
  const count = onlineRunnerLabels.length;
  const shown = onlineRunnerLabels
    .slice(0, 5)
    .map(labels => (labels.length ? formatRunnerLabels(labels) : 'none'));
  const more = count > shown.length ? `; ${count - shown.length} more` : '';
  const online =
    count === 1
      ? `the one runner online carries labels: ${shown[0]}`
      : `${count} runners are online (labels: ${shown.join(' | ')}${more})`;
  return `No connected runner has the labels ${formatRunnerLabels(
    required,
  )} this stack requires; ${online}. Start a runner with ${runnerLabelsArgument(
    required,
  )}, or change the stack's required runner labels`;
}
