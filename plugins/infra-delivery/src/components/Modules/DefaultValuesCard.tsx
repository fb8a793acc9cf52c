import { InfoCard, TableColumn } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  DefaultValueDefinition,
  MAX_PAGE_LIMIT,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { useActionMessage } from '../common/ActionMessage';
import { ButtonWithReason } from '../common/ButtonWithReason';
import { ChipList } from '../common/ChipList';
import { CARD_HEADING } from '../common/cardHeading';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { LoadNotes } from '../common/LoadNotes';
import { LoadingTable } from '../common/LoadingTable';
import {
  CARD_TABLE_OPTIONS,
  contentWidths,
  ROW_ACTIONS_STYLE,
} from '../common/tableOptions';
import { Timestamp } from '../common/Timestamp';
import { useCallerRole } from '../common/useCallerRole';
import { useCanWriteResources } from '../common/useCanExecuteRuns';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { DefaultValueDialog } from './DefaultValueDialog';

/** Why a person who may not change resources sees the buttons greyed. */
export const READ_ONLY_REASON =
  'Members of the organization add, change and delete default values; your role only reads them';

/** The values a default value may take, as chips; "Any" where it takes any value. */
const AllowedValues = ({
  definition,
}: {
  definition: DefaultValueDefinition;
}) => {
  const values = definition.schema.values ?? [];
  if (values.length === 0) return <>Any</>;
  return (
    <ChipList
      label={`Allowed values of ${definition.name}`}
      items={values.map(option => ({
        key: option.value,
        label: option.value,
        title: option.label,
      }))}
    />
  );
};

const columns = contentWidths<DefaultValueDefinition>([
  {
    title: 'Default value',
    render: definition => (
      // Narrow enough that the table fits a 900 px window (it overflowed by 21 px at 10em).
      <Box minWidth="8em">
        <Typography variant="body2">{definition.name}</Typography>
        {/* What a module's input names in `default_from`: under the name, as a runner's id is
            under its name, so that the table fits a 900 px window without scrolling. */}
        <Typography variant="caption" component="p">
          <code style={{ whiteSpace: 'nowrap' }}>{definition.givenId}</code>
        </Typography>
        {definition.description && (
          <Typography variant="caption" component="p" color="textSecondary">
            {definition.description}
          </Typography>
        )}
      </Box>
    ),
  },
  {
    title: 'Value',
    cellStyle: { whiteSpace: 'nowrap' },
    render: definition => definition.schema.default ?? '—',
  },
  {
    title: 'Allowed values',
    render: definition => <AllowedValues definition={definition} />,
  },
  {
    title: 'Updated',
    render: definition => <Timestamp value={definition.updatedAt} />,
  },
]);

/**
 * One element for every render: Backstage's table makes its body anew whenever its empty
 * content is another element (see `PluginTable`).
 */
const NO_DEFAULT_VALUES = (
  <Box padding={2}>
    <Typography variant="body2">
      No default value yet: module inputs take their own defaults.
    </Typography>
  </Box>
);

/**
 * The organization's default values: the values a module input takes when an instance gives
 * none, named by the input's `default_from`. Those who may change resources add, change and
 * delete them here; the service refuses to delete one that a module version names.
 */
export const DefaultValuesCard = () => {
  const client = useApi(infraDeliveryApiRef);
  const canWrite = useCanWriteResources();
  // Greyed while the role is asked, but not said to be read-only before it is known.
  const roleKnown = !useCallerRole().loading;
  const { message, say } = useActionMessage();
  /** The definition the dialog changes, or `new` for a new one. */
  const [editing, setEditing] = useState<DefaultValueDefinition | 'new'>();
  const definitions = useReloadableAsync(
    () =>
      client.call('listDefaultValueDefinitions', {
        query: { limit: MAX_PAGE_LIMIT },
      }),
    [client],
  );
  const page = definitions.value;
  const { retry } = definitions;

  const actions: TableColumn<DefaultValueDefinition> = {
    title: 'Actions',
    // Sized by its buttons like the other columns: without a width, material-table gave the
    // last column what the others left, and squeezed the allowed values one chip a line.
    width: 'auto',
    render: definition => (
      <Box style={ROW_ACTIONS_STYLE}>
        <Button
          size="small"
          variant="outlined"
          aria-label={`Edit ${definition.name}`}
          onClick={() => setEditing(definition)}
        >
          Edit
        </Button>
        <ConfirmActionButton
          label="Delete"
          ariaLabel={`Delete ${definition.name}`}
          color="secondary"
          title={`Delete ${definition.name}?`}
          onConfirm={() =>
            client.call('deleteDefaultValueDefinition', {
              params: { id: definition.id },
            })
          }
          onDone={() => {
            say({ text: `${definition.name} is deleted.` });
            retry();
          }}
        >
          <Typography>
            Module inputs can no longer take their default from{' '}
            <code>{definition.givenId}</code>. The service refuses while a
            released module version names it.
          </Typography>
        </ConfirmActionButton>
      </Box>
    ),
  };

  return (
    <InfoCard
      titleTypographyProps={CARD_HEADING}
      title="Default values"
      subheader="Organization-wide values: a module input that names one in default_from takes its value when an instance gives none."
      action={
        // The header's action slot pulls its content up and right by 8 px, for an icon
        // button; a text button would then touch the card's corner.
        <Box marginTop={1} marginRight={1}>
          <ButtonWithReason
            color="primary"
            variant="contained"
            size="small"
            disabled={!canWrite}
            disabledReason={roleKnown ? READ_ONLY_REASON : undefined}
            onClick={() => setEditing('new')}
          >
            Add default value
          </ButtonWithReason>
        </Box>
      }
      // The table spans the card, as the modules' above; what is said around it is inset.
      noPadding
    >
      {(message || definitions.error) && (
        <Box paddingX={2}>
          {message}
          <LoadNotes state={definitions} />
        </Box>
      )}
      <LoadingTable
        options={CARD_TABLE_OPTIONS}
        loading={definitions.loading && !page}
        loadingLabel="Loading default values"
        columns={canWrite ? [...columns, actions] : columns}
        data={page?.data ?? []}
        emptyContent={NO_DEFAULT_VALUES}
      />
      {((page && page.meta.totalCount > page.data.length) || !canWrite) && (
        <Box padding={2}>
          {page && page.meta.totalCount > page.data.length && (
            <Typography variant="body2" color="textSecondary">
              The newest {page.data.length} of {page.meta.totalCount} default
              values.
            </Typography>
          )}
          {!canWrite && (
            <Typography variant="body2" color="textSecondary">
              Members of the organization add, change and delete default values.
            </Typography>
          )}
        </Box>
      )}
      {editing && (
        <DefaultValueDialog
          definition={editing === 'new' ? undefined : editing}
          onClose={saved => {
            setEditing(undefined);
            if (saved) {
              say({
                text: `${saved.name} ${
                  editing === 'new' ? 'is added' : 'is changed'
                }.`,
              });
              retry();
            }
          }}
        />
      )}
    </InfoCard>
  );
};
