import {
  PipelineRun,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { runStartedAt } from '../common/runStartedAt';

/** A stack beside its newest run, if it was ever run. */
export interface StackRow {
  /**
   * The stack's id. material-table keys each row's state by its `id` between renders (and in
   * a development build warns in the console about every table whose rows have none).
   */
  id: string;
  stack: Stack;
  latestRun?: PipelineRun;
}

/** Stacks with their newest run: the most recently run first, stacks never run last. */
export function stackRows(
  stacks: Stack[],
  latestRuns: Map<string, PipelineRun>,
): StackRow[] {
  const started = (row: StackRow) =>
    row.latestRun ? Date.parse(runStartedAt(row.latestRun)) : -Infinity;
  return stacks
    .map(stack => ({
      id: stack.id,
      stack,
      latestRun: latestRuns.get(stack.id),
    }))
    .sort(
      (a, b) =>
        started(b) - started(a) || a.stack.name.localeCompare(b.stack.name),
    );
}
