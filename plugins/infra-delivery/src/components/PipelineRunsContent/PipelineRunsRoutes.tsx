import { Route, Routes, useResolvedPath } from 'react-router-dom';
import { PipelineRunsView } from './PipelineRunsView';
import { RunPage } from './RunPage';

/**
 * The runs list of some stacks (all of the organization's when none are named) and, under it,
 * a page per run: `…/` lists, `…/<runId>` shows one run.
 */
export const PipelineRunsRoutes = ({
  stackIds,
  stackNamedByPage = false,
}: {
  stackIds: string[];
  /** The page is the one stack's own: the list needs no Stack column. */
  stackNamedByPage?: boolean;
}) => {
  const base = useResolvedPath('').pathname.replace(/\/+$/, '');
  const runPath = (runId: string) => `${base}/${encodeURIComponent(runId)}`;
  return (
    <Routes>
      <Route
        path="/"
        element={
          <PipelineRunsView
            stackIds={stackIds}
            runPath={runPath}
            stackNamedByPage={stackNamedByPage}
          />
        }
      />
      <Route
        path=":runId"
        element={
          <RunPage
            stackIds={stackIds}
            runsPath={base || '/'}
            runPath={runPath}
          />
        }
      />
    </Routes>
  );
};
