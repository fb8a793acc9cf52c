import { InfoCard } from '@backstage/core-components';
import { PluginTable } from '../common/PluginTable';
import {
  PipelineRun,
  RunStatus,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import {
  CARD_TABLE_OPTIONS,
  contentWidths,
  NO_WRAP,
} from '../common/tableOptions';
import { MaybeLink } from '../common/MaybeLink';
import { StackLink } from '../common/StackLink';
import { Timestamp } from '../common/Timestamp';
import {
  runsTabPath,
  useInfrastructurePath,
  useRunPagePath,
} from '../common/useInfrastructurePath';
import { runsFilteredBy } from '../PipelineRunsContent/runFilters';
import { bothLoaded, LoadState } from '../common/loadState';
import { Loaded } from '../common/Loaded';
import { StackDirectory } from './useStackDirectory';
import { CARD_HEADING } from '../common/cardHeading';
import { ClampedCaption } from '../common/ClampedCaption';
import { CardBody } from '../common/CardBody';

export interface RunListCardProps {
  title: string;
  subheader: string;
  runs: LoadState<PipelineRun[]>;
  directory: LoadState<StackDirectory>;
  /** The sentence shown when no run is listed. */
  emptyText: string;
  /** The heading of the time column, and the time it shows. */
  timeTitle: string;
  timeOf: (run: PipelineRun) => string | undefined;
  /** A line under the run's name, e.g. why it failed. */
  detailOf?: (run: PipelineRun) => string | undefined;
  /** The card's link to the Runs tab filtered by this status, and its words. */
  allRuns: { status: RunStatus; title: string };
}

/**
 * Runs of the organization in a card, named after their stack and linked to their own page
 * under the Runs tab, where their steps and actions are.
 */
export const RunListCard = ({
  title,
  subheader,
  runs,
  directory,
  emptyText,
  timeTitle,
  timeOf,
  detailOf,
  allRuns,
}: RunListCardProps) => {
  const runPagePath = useRunPagePath();
  const infrastructurePath = useInfrastructurePath();
  return (
    <InfoCard
      titleTypographyProps={CARD_HEADING}
      title={title}
      subheader={subheader}
      noPadding
      deepLink={{
        title: allRuns.title,
        link: runsFilteredBy(runsTabPath(infrastructurePath), [allRuns.status]),
      }}
    >
      <Loaded state={bothLoaded(runs, directory)}>
        {([list, names]) => (
          <PluginTable
            options={CARD_TABLE_OPTIONS}
            data={list}
            // As wide as their content: equal shares wrapped a failure's reason over eight
            // lines beside a column of stack names.
            columns={contentWidths<PipelineRun>([
              {
                title: 'Run',
                render: run => {
                  const detail = detailOf?.(run);
                  return (
                    <Box>
                      <Typography variant="body2">
                        <MaybeLink to={runPagePath(run.id)}>
                          {names.titleOf(run)}
                        </MaybeLink>
                      </Typography>
                      {detail && <ClampedCaption text={detail} />}
                    </Box>
                  );
                },
              },
              {
                title: 'Stack',
                cellStyle: NO_WRAP,
                render: run => {
                  const stack = names.stackOf(run);
                  return stack ? (
                    <StackLink stackId={stack.id} name={stack.name} />
                  ) : (
                    '—'
                  );
                },
              },
              {
                title: timeTitle,
                cellStyle: NO_WRAP,
                render: run => <Timestamp value={timeOf(run)} />,
              },
            ])}
            emptyContent={
              <CardBody>
                <Typography>{emptyText}</Typography>
              </CardBody>
            }
          />
        )}
      </Loaded>
    </InfoCard>
  );
};
