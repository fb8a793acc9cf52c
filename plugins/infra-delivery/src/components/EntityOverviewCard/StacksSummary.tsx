import { Entity } from '@backstage/catalog-model';
import Typography from '@material-ui/core/Typography';
import { drawerLink } from '../common/drawerLinks';
import { Loaded } from '../common/Loaded';
import { RunState } from '../common/RunStatus';
import { runStartedAt } from '../common/runStartedAt';
import { Timestamp } from '../common/Timestamp';
import { MaybeLink } from '../common/MaybeLink';
import { StackLink } from '../common/StackLink';
import { isStackEntity } from '../common/stackEntityRef';
import { useEntityRunLink, useEntityTabLink } from '../common/useEntityTabLink';
import { RunStateNote } from '../PipelineRunsContent/RunStateNote';
import { isActiveRun } from '../common/livePolling';
import { OwnStackDrift } from './OwnStackDrift';
import { SummaryLine } from './SummaryLine';
import { SummarySection } from './SummarySection';
import { useEntityStacks } from './useEntityStacks';
import { UnknownStacksNote } from '../StacksContent/UnknownStacksNote';

/** The catalog module's entity of a stack names only itself. */
function isOwnStackPage(entity: Entity, stacks: unknown[]) {
  return isStackEntity(entity) && stacks.length === 1;
}

/**
 * The entity's newest run (linked to its page) and each of its stacks (linked to the stack's
 * own entity) with how its last run went: whether its infrastructure is as its code says, and
 * where to look if not. On a stack's own page, the stack's drift instead of a list naming only
 * itself.
 */
export const StacksSummary = ({
  entity,
  stackIds,
}: {
  entity: Entity;
  stackIds: string[];
}) => {
  const tabLink = useEntityTabLink();
  const runLink = useEntityRunLink();
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
                status={<RunState run={latestRun.run} />}
                detail={
                  <>
                    {latestRun.stack?.name ?? latestRun.run.attachedEntityId}
                    {' · '}
                    <Timestamp value={runStartedAt(latestRun.run)} />
                    {/* A plan pressed in the portal never waits in silence: "No runner is
                        connected to this organization", the run that holds the stack, or
                        the runner that runs it. */}
                    <span style={{ display: 'block' }}>
                      <RunStateNote
                        run={latestRun.run}
                        runPath={runId => runLink(entity, runId)}
                        blocker={latestRun.blocker}
                      />
                    </span>
                  </>
                }
              >
                <MaybeLink to={runLink(entity, latestRun.run.id)}>
                  {latestRun.title}
                </MaybeLink>
              </SummaryLine>
            ) : (
              <Typography variant="body2">No stack has run yet.</Typography>
            )}
          </SummarySection>
          {isOwnStackPage(entity, stacks) && stacks[0].stack ? (
            <OwnStackDrift
              stack={stacks[0].stack}
              link={drawerLink(
                tabLink(entity, 'stacks'),
                'stack',
                stacks[0].stackId,
              )}
            />
          ) : (
            <SummarySection
              title="Stacks"
              link={tabLink(entity, 'stacks')}
              linkText="All stacks"
            >
              {stacks.map(({ stackId, stack, latestRun: run, blocker }) =>
                // A stack the service does not have is no line: the note below names it.
                stack ? (
                  <SummaryLine
                    key={stackId}
                    status={<RunState run={run} />}
                    detail={
                      <>
                        {stack.givenId}
                        {/* What a stack whose run is under way waits for: the run that
                            holds it (and its approval), a runner, or the step it runs. */}
                        {run && isActiveRun(run.status) && (
                          <span style={{ display: 'block' }}>
                            <RunStateNote
                              run={run}
                              runPath={runId => runLink(entity, runId)}
                              blocker={blocker}
                            />
                          </span>
                        )}
                      </>
                    }
                  >
                    <StackLink stackId={stackId} name={stack.name} />
                  </SummaryLine>
                ) : null,
              )}
              <UnknownStacksNote
                entity={entity}
                stackIds={stacks
                  .filter(({ stack }) => !stack)
                  .map(({ stackId }) => stackId)}
              />
            </SummarySection>
          )}
        </>
      )}
    </Loaded>
  );
};
