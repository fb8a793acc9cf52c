import { Entity } from '@backstage/catalog-model';
import Typography from '@material-ui/core/Typography';
import { ReactNode } from 'react';
import { drawerLink } from '../common/drawerLinks';
import { Loaded } from '../common/Loaded';
import { DataAsOf } from '../common/DataAsOf';
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
import { SummaryLine, SummaryLinePlaceholder } from './SummaryLine';
import { SummarySection } from './SummarySection';
import { useEntityStacks } from './useEntityStacks';
import { UnknownStacksNote } from '../StacksContent/UnknownStacksNote';

/** The catalog module's entity of a stack names only itself. */
function isOwnStackPage(entity: Entity, stackIds: string[]) {
  return isStackEntity(entity) && stackIds.length === 1;
}

/** The sections of the card that link to a tab: what each is called, and its link. */
const TAB_SECTIONS = {
  runs: { title: 'Latest run', linkText: 'All runs' },
  stacks: { title: 'Stacks', linkText: 'All stacks' },
};

const TabSection = ({
  entity,
  tab,
  children,
}: {
  entity: Entity;
  tab: keyof typeof TAB_SECTIONS;
  children: ReactNode;
}) => (
  <SummarySection {...TAB_SECTIONS[tab]} link={useEntityTabLink()(entity, tab)}>
    {children}
  </SummarySection>
);

/**
 * The entity's newest run (linked to its page) and each of its stacks (linked to the stack's
 * own entity) with how its last run went: whether its infrastructure is as its code says, and
 * where to look if not. On a stack's own page, the stack's drift instead of a list naming only
 * itself. Until they load, the same sections with a placeholder for each line to come.
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
  const ownStackPage = isOwnStackPage(entity, stackIds);
  const driftLink = drawerLink(tabLink(entity, 'stacks'), 'stack', stackIds[0]);
  // A running run's runner judged as of the last answer while a reload goes unanswered.
  return (
    <DataAsOf state={state}>
      <Loaded
        state={state}
        placeholder={
          <>
            <TabSection entity={entity} tab="runs">
              <SummaryLinePlaceholder />
            </TabSection>
            {ownStackPage ? (
              <OwnStackDrift link={driftLink} />
            ) : (
              <TabSection entity={entity} tab="stacks">
                {stackIds.map(stackId => (
                  <SummaryLinePlaceholder key={stackId} />
                ))}
              </TabSection>
            )}
          </>
        }
      >
        {({ stacks, latestRun }) => (
          <>
            <TabSection entity={entity} tab="runs">
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
            </TabSection>
            {ownStackPage && stacks[0].stack ? (
              <OwnStackDrift stack={stacks[0].stack} link={driftLink} />
            ) : (
              <TabSection entity={entity} tab="stacks">
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
              </TabSection>
            )}
          </>
        )}
      </Loaded>
    </DataAsOf>
  );
};
