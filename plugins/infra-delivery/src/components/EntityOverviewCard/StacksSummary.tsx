import { Entity } from '@backstage/catalog-model';
import Typography from '@material-ui/core/Typography';
import { Loaded } from '../common/Loaded';
import { RunStatus } from '../common/RunStatus';
import { runStartedAt } from '../common/runStartedAt';
import { Timestamp } from '../common/Timestamp';
import { useEntityTabLink } from '../common/useEntityTabLink';
import { SummaryLine } from './SummaryLine';
import { SummarySection } from './SummarySection';
import { useEntityStacks } from './useEntityStacks';

/**
 * The entity's newest run and each of its stacks with how its last run went: whether its
 * infrastructure is as its code says, and where to look if not.
 */
export const StacksSummary = ({
  entity,
  stackIds,
}: {
  entity: Entity;
  stackIds: string[];
}) => {
  const tabLink = useEntityTabLink();
  const state = useEntityStacks(stackIds);
  return (
    <Loaded state={state}>
      {({ stacks, latestRun }) => (
        <>
          <SummarySection
            title="Latest run"
            link={tabLink(entity, 'runs')}
            linkText="All runs"
          >
            {latestRun ? (
              <SummaryLine
                status={<RunStatus status={latestRun.run.status} />}
                detail={
                  <>
                    {latestRun.stack?.name ?? latestRun.run.attachedEntityId}
                    {' · '}
                    <Timestamp value={runStartedAt(latestRun.run)} />
                  </>
                }
              >
                {latestRun.title}
              </SummaryLine>
            ) : (
              <Typography variant="body2">No stack has run yet.</Typography>
            )}
          </SummarySection>
          <SummarySection
            title="Stacks"
            link={tabLink(entity, 'stacks')}
            linkText="All stacks"
          >
            {stacks.map(({ stackId, stack, latestRun: run }) =>
              stack ? (
                <SummaryLine
                  key={stackId}
                  status={<RunStatus status={run?.status} />}
                  detail={stack.givenId}
                >
                  {stack.name}
                </SummaryLine>
              ) : (
                <Typography key={stackId} variant="body2" color="error">
                  Stack {stackId} was not found
                </Typography>
              ),
            )}
          </SummarySection>
        </>
      )}
    </Loaded>
  );
};
