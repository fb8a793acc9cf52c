/**
 * User Timing entries of the runs list, read by the frontend benchmark
 * (`yarn bench:frontend`): `loaded` is marked when a page of runs arrives, and the `render`
 * measure spans from there to the rows being in the DOM. Only the newest of each is kept.
 */
export const RUNS_LOADED_MARK = 'infra-delivery:pipeline-runs:loaded';
export const RUNS_RENDER_MEASURE = 'infra-delivery:pipeline-runs:render';

export function markRunsLoaded() {
  if (typeof performance === 'undefined' || !performance.mark) return;
  performance.clearMarks(RUNS_LOADED_MARK);
  performance.mark(RUNS_LOADED_MARK);
}

export function measureRunsRender() {
  if (typeof performance === 'undefined' || !performance.measure) return;
  if (performance.getEntriesByName(RUNS_LOADED_MARK, 'mark').length === 0) {
    return;
  }
  performance.clearMeasures(RUNS_RENDER_MEASURE);
  performance.measure(RUNS_RENDER_MEASURE, RUNS_LOADED_MARK);
}
