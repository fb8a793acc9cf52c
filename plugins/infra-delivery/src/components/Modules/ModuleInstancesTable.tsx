import { useApi } from '@backstage/frontend-plugin-api';
import {
  ModuleInstance,
  ModuleVersion,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { infraDeliveryApiRef } from '../../api';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { LoadingTable } from '../common/LoadingTable';
import { CARD_TABLE_OPTIONS, contentWidths } from '../common/tableOptions';
import { Timestamp } from '../common/Timestamp';

/** The longest `name = value` line kept whole. */
const SHORT_VALUE_LINE = 32;

/** An instance's values, one `name = value` per line. */
const Values = ({ instance }: { instance: ModuleInstance }) => {
  const entries = Object.entries(instance.values);
  if (entries.length === 0) {
    return <>None</>;
  }
  // A line per value. A short one stays whole (a CIDR block cut after "/1" reads wrong); a
  // long one breaks where the column ends.
  return (
    <Box minWidth="12em">
      {entries.map(([name, value]) => (
        <Typography
          key={name}
          variant="body2"
          style={{
            fontFamily: 'monospace',
            wordBreak: 'normal',
            ...(name.length + value.length <= SHORT_VALUE_LINE
              ? { whiteSpace: 'nowrap' }
              : { overflowWrap: 'anywhere' }),
          }}
        >
          {`${name}\u00a0=\u00a0${value}`}
        </Typography>
      ))}
    </Box>
  );
};

/**
 * A module's instances: where each is, its version (and whether a newer one is out), its
 * values, and for those who may change them Change and Delete.
 */
export const ModuleInstancesTable = ({
  instances,
  versions,
  loading,
  placeOf,
  onChange,
  onDeleted,
}: {
  instances: ModuleInstance[];
  /** The module's versions, newest first. */
  versions: ModuleVersion[];
  loading: boolean;
  /** "Payments · Production" for an instance's environment. */
  placeOf: (instance: ModuleInstance) => string;
  /** Opens the change of an instance; no actions without it. */
  onChange?: (instance: ModuleInstance) => void;
  onDeleted: (instance: ModuleInstance) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const versionName = (id: string) =>
    versions.find(version => version.id === id)?.version ?? '—';
  return (
    <LoadingTable<ModuleInstance>
      options={CARD_TABLE_OPTIONS}
      loading={loading}
      loadingLabel="Loading the module's instances"
      columns={contentWidths<ModuleInstance>([
        {
          // Its environment under its name: four columns fit the drawer at 1,024 px.
          title: 'Instance',
          render: instance => (
            <Box minWidth="8em">
              <Typography variant="body2">{instance.name}</Typography>
              <Typography variant="caption" color="textSecondary">
                {placeOf(instance)}
              </Typography>
              {/* Under its name: a column of their own would not fit the drawer at 1,024 px. */}
              {onChange && (
                <Box
                  display="flex"
                  marginTop={1}
                  style={{ gap: 8, whiteSpace: 'nowrap' }}
                >
                  <Button
                    size="small"
                    variant="outlined"
                    aria-label={`Change ${instance.name}`}
                    onClick={() => onChange(instance)}
                  >
                    Change
                  </Button>
                  <ConfirmActionButton
                    label="Delete"
                    ariaLabel={`Delete ${instance.name}`}
                    color="secondary"
                    title={`Delete ${instance.name}?`}
                    onConfirm={() =>
                      client.call('deleteModuleInstance', {
                        params: { id: instance.id },
                      })
                    }
                    onDone={() => onDeleted(instance)}
                  >
                    <Typography>
                      This removes the instance from {placeOf(instance)} and
                      forgets its values. Infrastructure already applied stays
                      as it is.
                    </Typography>
                  </ConfirmActionButton>
                </Box>
              )}
            </Box>
          ),
        },
        {
          title: 'Version',
          render: instance => (
            <>
              {versionName(instance.moduleVersionId)}
              {versions[0] && versions[0].id !== instance.moduleVersionId && (
                <Typography
                  variant="caption"
                  color="textSecondary"
                  component="div"
                >
                  {versions[0].version} available
                </Typography>
              )}
            </>
          ),
        },
        {
          title: 'Values',
          render: instance => <Values instance={instance} />,
        },
        {
          title: 'Updated',
          render: instance => <Timestamp value={instance.updatedAt} />,
        },
      ])}
      data={instances}
      emptyContent={
        <Box padding={2}>
          <Typography variant="body2">
            No instance yet: an instance is a version of the module chosen for
            an environment, with its values.
          </Typography>
        </Box>
      }
    />
  );
};
