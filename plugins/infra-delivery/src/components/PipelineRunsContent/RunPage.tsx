import { Link } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import ArrowBackIcon from '@material-ui/icons/ArrowBack';
import { useParams } from 'react-router-dom';
import { useRunNames } from '../common/useRunNames';
import { RunDetails } from './RunDetails';
import { useRunsListWayBack } from './runFilters';

/**
 * One run on a page of its own (`…/<runId>` under the runs list), so that it can be linked
 * and shared: its steps with their logs, plan summaries, resource changes and actions.
 */
export const RunPage = ({
  stackIds,
  runsPath,
  runPath,
}: {
  stackIds: string[];
  /** The runs list this page belongs to. */
  runsPath: string;
  /** The page of another run of the list. */
  runPath: (runId: string) => string;
}) => {
  const { runId } = useParams();
  const names = useRunNames(stackIds);
  const wayBack = useRunsListWayBack();
  return (
    <Box>
      <Link to={`${runsPath}${wayBack.search}`} state={wayBack.state}>
        <Box display="inline-flex" alignItems="center" style={{ gap: 4 }}>
          <ArrowBackIcon fontSize="small" /> All runs
        </Box>
      </Link>
      <RunDetails key={runId} runId={runId!} names={names} runPath={runPath} />
    </Box>
  );
};
