import {
  PipelineRun,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { runStartedAt } from '../common/runStartedAt';

/** A stack beside its newest run, if it was ever run. */
export interface StackRow {
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
    .map(stack => ({ stack, latestRun: latestRuns.get(stack.id) }))
    .sort(
      (a, b) =>
        started(b) - started(a) || a.stack.name.localeCompare(b.stack.name),
    );
}
