import { ResourceName } from '../common/ResourceName';
import { PluginTable } from '../common/PluginTable';
import { CARD_TABLE_OPTIONS, contentWidths } from '../common/tableOptions';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  IacResource,
  IacRunType,
  MAX_PAGE_LIMIT,
  readPages,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import InputAdornment from '@material-ui/core/InputAdornment';
import Switch from '@material-ui/core/Switch';
import TextField from '@material-ui/core/TextField';
import SearchIcon from '@material-ui/icons/Search';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import Typography from '@material-ui/core/Typography';
import ToggleButton from '@material-ui/lab/ToggleButton';
import ToggleButtonGroup from '@material-ui/lab/ToggleButtonGroup';
import { makeStyles } from '@material-ui/core/styles';
import { memo, useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { CHANGE_KIND_LABELS, RUN_TYPE_LABELS } from '../common/labels';
import { ErrorPanel } from '../common/ErrorPanel';
import { TableCard } from '../common/TableCard';
import { CardBody } from '../common/CardBody';
import { PluginDialog } from '../common/PluginDialog';

/**
 * The most resource changes a run page reads (ten requests): a plan and its apply of 2,500
 * resources each. A larger run says how many it reported.
 */
export const MAX_RESOURCES_READ = 5_000;

/**
 * Rows per page of the table: a run page laid out 1,000 runs' rows in 0.45–2.4 s (the runs tab
 * before its paging, docs/benchmarks-frontend.md), and a plan of 5,000 changes was five times
 * that, again at each letter typed in the filter.
 */
export const RESOURCE_CHANGES_PAGE_SIZE = 50;

/** The order in which a run's steps report: a plan, then its apply (or destroy). */
const RUN_TYPES = Object.keys(RUN_TYPE_LABELS) as IacRunType[];

/** Whether a resource's address or change names what was searched for (in any case). */
function matchesSearch(resource: IacResource, search: string): boolean {
  const wanted = search.trim().toLocaleLowerCase();
  return (
    !wanted ||
    resource.address.toLocaleLowerCase().includes(wanted) ||
    CHANGE_KIND_LABELS[resource.changeKind].toLocaleLowerCase().includes(wanted)
  );
}

const json = (value: unknown) => JSON.stringify(value ?? null, null, 2);

/** Before and after of one resource, side by side. */
export const ResourceDiff = ({ resource }: { resource: IacResource }) => (
  <Box display="flex" style={{ gap: 16 }} padding={2}>
    {(['before', 'after'] as const).map(side => (
      <Box key={side} flex={1} minWidth={0}>
        <Typography variant="overline">{side}</Typography>
        <Box component="pre" fontSize={12} margin={0} overflow="auto">
          {json(resource.vendorData[side])}
        </Box>
      </Box>
    ))}
  </Box>
);

/** One resource's before and after, over the run page. */
const ResourceDiffDialog = ({
  resource,
  onClose,
}: {
  resource: IacResource;
  onClose: () => void;
}) => (
  <PluginDialog
    open
    onClose={onClose}
    maxWidth="lg"
    fullWidth
    aria-labelledby="resource-diff-title"
  >
    <DialogTitle id="resource-diff-title">
      {CHANGE_KIND_LABELS[resource.changeKind]}: {resource.address}
    </DialogTitle>
    <DialogContent>
      <ResourceDiff resource={resource} />
    </DialogContent>
    <DialogActions>
      <Button onClick={onClose}>Close</Button>
    </DialogActions>
  </PluginDialog>
);

/**
 * The run's resource changes, most consequential first (#14 by run), read again whenever
 * `stepsKey` changes: a step that ends (the apply after an approval) may have reported more.
 * Rendered again only when those change: the run's page reads the run every 5 seconds while
 * it waits for approval, and a plan of 1,200 changes was laid out again at each reading.
 */
/**
 * The step not chosen in the secondary text's colour, as a button to press: MUI gives it the
 * disabled text's grey (38 %, 2.7:1 on the card), and "Plan (4)" beside a chosen "Apply (4)"
 * read as unavailable. The chosen one keeps MUI's own colour and background.
 */
const useToggleStyles = makeStyles(theme => ({
  toggle: { color: theme.palette.text.secondary },
}));

export const ResourceChanges = memo(function RunResourceChanges({
  runId,
  stepsKey,
}: {
  runId: string;
  stepsKey: string;
}) {
  const client = useApi(infraDeliveryApiRef);
  const toggleClasses = useToggleStyles();
  const [opened, setOpened] = useState<IacResource>();
  // As Terraform's own plan output: what changes, the unchanged only on request.
  const [showUnchanged, setShowUnchanged] = useState(false);
  // After an approval, the plan and the apply both reported the same resources: one step at a
  // time (no step column), the latest unless someone chose another.
  const [chosenStep, setChosenStep] = useState<IacRunType>();
  // What the address or the change is searched for: in the card's header with the other
  // controls of what the table shows, where the table's own search sat on a row by itself.
  const [search, setSearch] = useState('');
  // The previous answer stays shown while the next one loads.
  const { value: read, error } = useAsync(
    () =>
      readPages(
        cursor =>
          client.call('listIacResources', {
            query: {
              pipelineRunId: runId,
              limit: MAX_PAGE_LIMIT,
              ...(cursor ? { cursor } : {}),
            },
          }),
        MAX_RESOURCES_READ,
      ),
    [client, runId, stepsKey],
  );
  if (error) return <ErrorPanel error={error} />;
  if (!read || read.items.length === 0) return null;
  const resources = read.items;
  const steps = RUN_TYPES.filter(type =>
    resources.some(r => r.runType === type),
  );
  const step =
    chosenStep && steps.includes(chosenStep)
      ? chosenStep
      : steps[steps.length - 1];
  const ofStep = resources.filter(r => r.runType === step);
  const unchanged = ofStep.filter(r => r.changeKind === 'NO_OP').length;
  const shown = (
    showUnchanged ? ofStep : ofStep.filter(r => r.changeKind !== 'NO_OP')
  ).filter(resource => matchesSearch(resource, search));
  return (
    <Box marginTop={3}>
      <TableCard
        // The rows it shows: "(4)" above "Nothing changes" read as a contradiction.
        title={`Resource changes (${shown.length})`}
        // The counts are of the resources read; a larger run says how many it has.
        subheader={
          read.totalCount > read.items.length
            ? `The first ${read.items.length} of the ${read.totalCount} resources the run reported`
            : undefined
        }
        controlsUnderTitleWhenNarrow
        // What the table shows, in the header of the card it filters: beside the card, the
        // switch read as a setting of the page.
        action={
          <Box
            display="flex"
            flexWrap="wrap"
            alignItems="center"
            justifyContent="flex-end"
            style={{ gap: 16 }}
          >
            <TextField
              value={search}
              onChange={event => setSearch(event.target.value)}
              placeholder="Filter"
              inputProps={{ 'aria-label': 'Filter resource changes' }}
              InputProps={{
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              }}
            />
            {steps.length > 1 && (
              <ToggleButtonGroup
                size="small"
                exclusive
                value={step}
                onChange={(_, next: IacRunType | null) =>
                  next && setChosenStep(next)
                }
                aria-label="Changes reported by"
              >
                {steps.map(type => (
                  <ToggleButton
                    key={type}
                    value={type}
                    classes={{ root: toggleClasses.toggle }}
                  >
                    {`${RUN_TYPE_LABELS[type]} (${
                      resources.filter(r => r.runType === type).length
                    })`}
                  </ToggleButton>
                ))}
              </ToggleButtonGroup>
            )}
            {unchanged > 0 && (
              <FormControlLabel
                style={{ marginRight: 0 }}
                control={
                  <Switch
                    size="small"
                    checked={showUnchanged}
                    onChange={event => setShowUnchanged(event.target.checked)}
                  />
                }
                label={`Show the ${unchanged} unchanged`}
              />
            )}
          </Box>
        }
      >
        <PluginTable
          // Other rows from their first page: material-table keeps the page it is on, and the
          // second page of all the changes became the second page of those matching a filter,
          // the first 50 matches out of sight under a filter that seemed to skip them.
          key={JSON.stringify([
            step,
            showUnchanged,
            search.trim().toLowerCase(),
          ])}
          // The card has the title and the search: no toolbar of the table's own.
          options={{
            ...CARD_TABLE_OPTIONS,
            paging: shown.length > RESOURCE_CHANGES_PAGE_SIZE,
            pageSize: RESOURCE_CHANGES_PAGE_SIZE,
            pageSizeOptions: [RESOURCE_CHANGES_PAGE_SIZE],
          }}
          columns={contentWidths<IacResource>([
            {
              title: 'Change',
              field: 'changeKind',
              render: resource =>
                `${CHANGE_KIND_LABELS[resource.changeKind]}${
                  resource.tainted ? ' (tainted)' : ''
                }`,
            },
            {
              // The address is what people read: it takes the room the short columns leave,
              // and wraps anywhere only when it needs more.
              title: 'Address',
              field: 'address',
              render: resource => (
                <ResourceName>{resource.address}</ResourceName>
              ),
            },
            {
              title: 'Before and after',
              sorting: false,
              // One line: beside a long address the header otherwise wrapped over three.
              headerStyle: { whiteSpace: 'nowrap' },
              render: resource => (
                <Button
                  size="small"
                  variant="outlined"
                  aria-label={`Show before and after of ${resource.address}`}
                  onClick={() => setOpened(resource)}
                >
                  Show
                </Button>
              ),
            },
          ])}
          data={shown}
          emptyContent={
            <CardBody>
              {search ? (
                <>
                  <Typography>
                    No resource change matches “{search}”.
                  </Typography>
                  <Button
                    variant="outlined"
                    size="small"
                    style={{ marginTop: 8 }}
                    onClick={() => setSearch('')}
                  >
                    Clear the filter
                  </Button>
                </>
              ) : (
                <Typography>
                  Nothing changes: every resource stays as it is.
                </Typography>
              )}
            </CardBody>
          }
        />
      </TableCard>
      {opened && (
        <ResourceDiffDialog
          resource={opened}
          onClose={() => setOpened(undefined)}
        />
      )}
    </Box>
  );
});
