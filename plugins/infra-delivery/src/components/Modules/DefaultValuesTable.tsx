import { DefaultValueDefinition } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { ErrorPanel } from '../common/ErrorPanel';
import { LoadingTable } from '../common/LoadingTable';
import { contentWidths, TABLE_OPTIONS } from '../common/tableOptions';
import { Timestamp } from '../common/Timestamp';
import { useDefaultValues } from './useDefaultValues';

const columns = contentWidths<DefaultValueDefinition>([
  {
    title: 'Default value',
    render: definition => (
      <Box minWidth="10em">
        <Typography variant="body2">{definition.name}</Typography>
        {definition.description && (
          <Typography variant="caption" component="p" color="textSecondary">
            {definition.description}
          </Typography>
        )}
      </Box>
    ),
  },
  {
    // What a module's input names in `default_from`.
    title: 'Id',
    render: definition => (
      <code style={{ whiteSpace: 'nowrap' }}>{definition.givenId}</code>
    ),
  },
  {
    title: 'Value',
    cellStyle: { whiteSpace: 'nowrap' },
    render: definition => definition.schema.default ?? '—',
  },
  {
    title: 'Allowed values',
    render: definition =>
      definition.schema.values?.map(option => option.value).join(', ') || 'Any',
  },
  {
    title: 'Updated',
    render: definition => <Timestamp value={definition.updatedAt} />,
  },
]);

/**
 * The organization's default values: the values a module input takes when an instance gives
 * none, named by the input's `default_from`.
 */
export const DefaultValuesTable = () => {
  const definitions = useDefaultValues();
  return (
    <>
      {definitions.error && <ErrorPanel error={definitions.error} />}
      <LoadingTable
        title="Default values"
        subtitle="Organization-wide values: a module input that names one takes its value when an instance gives none."
        loading={definitions.loading && !definitions.value}
        loadingLabel="Loading default values"
        options={TABLE_OPTIONS}
        columns={columns}
        data={definitions.value ?? []}
        emptyContent={
          <Box padding={2}>
            <Typography variant="body2">
              No default value yet: module inputs take their own defaults.
            </Typography>
          </Box>
        }
      />
    </>
  );
};
