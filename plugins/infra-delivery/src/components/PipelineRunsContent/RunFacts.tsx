import { PipelineRun } from '@infra-delivery/plugin-infra-delivery-common';
import Typography from '@material-ui/core/Typography';
import { Duration } from '../common/Duration';
import { PersonName } from '../common/PersonName';
import { StackLink } from '../common/StackLink';
import { Timestamp } from '../common/Timestamp';
import { RunNames } from '../common/useRunNames';
import { RunTrigger } from '../common/RunTrigger';
import { attemptStartedAt } from './attemptStartedAt';

/**
 * The line under a run's title: its stack, who started it, when, and how long it took; for a
 * run a push or pull request started, the commit and what pointed to it.
 */
export const RunFacts = ({
  run,
  names,
}: {
  run: PipelineRun;
  names: RunNames;
}) => {
  const stack = names.stackName(run.attachedEntityId);
  const person = names.personName(run.createdById) ?? run.createdById;
  return (
    <Typography variant="body2" color="textSecondary">
      {stack && run.attachedEntityId && (
        <>
          <StackLink stackId={run.attachedEntityId} name={stack} inText /> ·{' '}
        </>
      )}
      {person && (
        <>
          started by <PersonName name={person} inText /> ·{' '}
        </>
      )}
      <Timestamp value={run.startedAt ?? run.createdAt} /> ·{' '}
      {run.attemptEpoch > 1 && <>attempt {run.attemptEpoch}: </>}
      <Duration
        startedAt={attemptStartedAt(run)}
        completedAt={run.completedAt}
      />
      {run.startedAt && !run.completedAt && ' so far'}
      {run.gitSource && (
        <>
          <br />
          <RunTrigger run={run} inText />
        </>
      )}
    </Typography>
  );
};
