/**
 * Prints what a reliability test measured on one line, for docs/reliability.md and CI logs.
 * Figures are reported, not asserted against a clock.
 */
export function reportFigures(test: string, figures: Record<string, unknown>) {
  process.stdout.write(`[figures] ${test} ${JSON.stringify(figures)}\n`);
}
