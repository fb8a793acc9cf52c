import { LinkButton } from '@backstage/core-components';
import { PluginTable } from '../common/PluginTable';
import { Stack } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { CARD_TABLE_OPTIONS } from '../common/tableOptions';
import { Loaded } from '../common/Loaded';
import { DataAsOf } from '../common/DataAsOf';
import { MaybeLink } from '../common/MaybeLink';
import { RunState } from '../common/RunStatus';
import { runStartedAt } from '../common/runStartedAt';
import { StartedAndTook } from '../common/StartedAndTook';
import { runTitleBesideStack } from '../common/runTitle';
import { useRunPagePath } from '../common/useInfrastructurePath';
import { RunStateNote } from '../PipelineRunsContent/RunStateNote';
import { useBlockingRuns } from '../PipelineRunsContent/useBlockingRuns';
import { stackEntityRef } from '../common/stackEntityRef';
import { useEntityTabLink } from '../common/useEntityTabLink';
import { useLatestRunPerStack } from '../common/useLatestRunPerStack';
import { StackRow, stackRows } from './stackRows';
import { attemptStartedAt } from '../PipelineRunsContent/attemptStartedAt';
import { CardBody } from '../common/CardBody';
import { useCreateStackPath } from '../common/useCreateStackPath';

/**
 * The empty list says where stacks come from: the stack template, where the app has it, or
 * else the project's environments they go in.
 */
const NoStackYet = () => {
  const createStackPath = useCreateStackPath();
  return (
    <CardBody>
      <Typography paragraph>The organization has no stack yet.</Typography>
      {createStackPath ? (
        <LinkButton variant="outlined" color="primary" to={createStackPath()}>
          Create a stack from the template
        </LinkButton>
      ) : (
        <Typography variant="body2" color="textSecondary">
          Stacks are created in an environment of a project: see the Projects
          tab.
        </Typography>
      )}
    </CardBody>
  );
};

/** Rows per page. */
const PAGE_SIZE = 10;

/** The stacks with the status and start of their last run, the most recently run first. */
export const StackLastRunTable = ({ stacks }: { stacks: Stack[] }) => {
  const tabLink = useEntityTabLink();
  const runPagePath = useRunPagePath();
  const latestRuns = useLatestRunPerStack(stacks.map(stack => stack.id));
  // The holders are read again with each load of the latest runs.
  const blockerOf = useBlockingRuns(latestRuns.value, stacks);
  // A running run's runner judged as of the last answer while a reload goes unanswered.
  return (
    <DataAsOf state={latestRuns}>
      <Loaded state={latestRuns}>
        {runs => {
          const rows = stackRows(stacks, runs);
          return (
            <PluginTable<StackRow>
              options={{
                ...CARD_TABLE_OPTIONS,
                paging: rows.length > PAGE_SIZE,
                pageSize: PAGE_SIZE,
                pageSizeOptions: [PAGE_SIZE],
              }}
              data={rows}
              columns={[
                {
                  title: 'Stack',
                  render: ({ stack }) => (
                    <Box>
                      <Typography variant="body2">
                        <MaybeLink
                          to={tabLink(stackEntityRef(stack.id), 'stacks')}
                        >
                          {stack.name}
                        </MaybeLink>
                      </Typography>
                      <Typography variant="caption" color="textSecondary">
                        {stack.givenId}
                      </Typography>
                    </Box>
                  ),
                },
                {
                  title: 'Last run',
                  // Which run, linked to its page, and why it waits when it is queued.
                  render: ({ latestRun }) => (
                    <>
                      <RunState run={latestRun} />
                      {latestRun && (
                        <Typography
                          variant="caption"
                          color="textSecondary"
                          component="div"
                        >
                          <MaybeLink to={runPagePath(latestRun.id)}>
                            {runTitleBesideStack(latestRun, stacks)}
                          </MaybeLink>
                          {/* Why it waits, or which runner runs it. */}
                          <div>
                            <RunStateNote
                              run={latestRun}
                              runPath={runPagePath}
                              blocker={blockerOf(latestRun)}
                            />
                          </div>
                        </Typography>
                      )}
                    </>
                  ),
                },
                {
                  title: 'Started',
                  render: ({ latestRun }) => (
                    <StartedAndTook
                      at={latestRun && runStartedAt(latestRun)}
                      startedAt={latestRun && attemptStartedAt(latestRun)}
                      completedAt={latestRun?.completedAt}
                    />
                  ),
                },
              ]}
              emptyContent={<NoStackYet />}
            />
          );
        }}
      </Loaded>
    </DataAsOf>
  );
};
