import { PipelineRun } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { Duration } from '../common/Duration';
import { PrincipalName } from '../common/PersonName';
import { StackLink } from '../common/StackLink';
import { Timestamp } from '../common/Timestamp';
import { RunNames } from '../common/useRunNames';
import { RunTrigger } from '../common/RunTrigger';
import { attemptStartedAt } from './attemptStartedAt';

/**
 * The line under a run's title: its stack, who started it, when, and how long it took; for a
 * run a push or pull request started, the commit and what pointed to it. The stack leads the
 * line as a label of its own, as a catalog entity's header puts its owner and system: a link
 * underlined on hover, as every stack link of the plugin, not a word of the sentence after it
 * (which underlines the person it names, since there only colour would set the link apart).
 */
export const RunFacts = ({
  run,
  names,
}: {
  run: PipelineRun;
  names: RunNames;
}) => {
  const stack = names.stackName(run.attachedEntityId);
  return (
    <Typography variant="body2" color="textSecondary" component="div">
      <Box display="flex" flexWrap="wrap" style={{ columnGap: 4 }}>
        {stack && run.attachedEntityId && (
          <>
            <StackLink stackId={run.attachedEntityId} name={stack} />
            <span aria-hidden="true">·</span>
          </>
        )}
        <span>
          {run.createdById && (
            <>
              started by{' '}
              <PrincipalName
                id={run.createdById}
                name={names.personName(run.createdById)}
                loaded={names.peopleLoaded}
                inText
              />{' '}
              ·{' '}
            </>
          )}
          <Timestamp value={run.startedAt ?? run.createdAt} /> ·{' '}
          {run.attemptEpoch > 1 && <>attempt {run.attemptEpoch}: </>}
          <Duration
            startedAt={attemptStartedAt(run)}
            completedAt={run.completedAt}
          />
          {run.startedAt && !run.completedAt && ' so far'}
        </span>
      </Box>
      {run.gitSource && (
        <div>
          <RunTrigger run={run} inText />
        </div>
      )}
    </Typography>
  );
};
