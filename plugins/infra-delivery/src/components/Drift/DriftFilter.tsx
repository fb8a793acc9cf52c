import { Stack } from '@infra-delivery/plugin-infra-delivery-common';
import FormControl from '@material-ui/core/FormControl';
import InputLabel from '@material-ui/core/InputLabel';
import MenuItem from '@material-ui/core/MenuItem';
import Select from '@material-ui/core/Select';
import { DRIFT_STATUS_LABELS } from './DriftStatus';

export type DriftFilterValue = 'ALL' | Stack['driftStatus'];

/** Whether a stack shows under the drift filter; a missing stack shows only under "All". */
export function matchesDriftFilter(
  filter: DriftFilterValue,
  stack: Stack | undefined,
): boolean {
  return filter === 'ALL' || stack?.driftStatus === filter;
}

/** A select of the drift status to show stacks of. */
export const DriftFilter = ({
  value,
  onChange,
}: {
  value: DriftFilterValue;
  onChange: (value: DriftFilterValue) => void;
}) => (
  <FormControl size="small" style={{ minWidth: 180 }}>
    <InputLabel id="drift-filter-label">Filter by drift</InputLabel>
    <Select
      labelId="drift-filter-label"
      value={value}
      onChange={event => onChange(event.target.value as DriftFilterValue)}
    >
      <MenuItem value="ALL">All stacks</MenuItem>
      {(Object.keys(DRIFT_STATUS_LABELS) as Stack['driftStatus'][]).map(
        status => (
          <MenuItem key={status} value={status}>
            {DRIFT_STATUS_LABELS[status]}
          </MenuItem>
        ),
      )}
    </Select>
  </FormControl>
);
