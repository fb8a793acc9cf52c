import { Stack } from '@infra-delivery/plugin-infra-delivery-common';
import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';
import { DRIFT_STATUS_LABELS } from './DriftStatus';

export type DriftFilterValue = 'ALL' | Stack['driftStatus'];

/** Whether a stack shows under the drift filter. */
export function matchesDriftFilter(
  filter: DriftFilterValue,
  stack: Stack,
): boolean {
  return filter === 'ALL' || stack.driftStatus === filter;
}

/**
 * A select of the drift status to show stacks of, in the header of the stacks' card (on the
 * card colour, where the field's grey label keeps its contrast), named with what it shows
 * ("Filter by drift: All stacks"). It was a card of its own above the table it filters.
 */
export const DriftFilter = ({
  value,
  onChange,
}: {
  value: DriftFilterValue;
  onChange: (value: DriftFilterValue) => void;
}) => {
  const labelOf = (option: DriftFilterValue) =>
    option === 'ALL' ? 'All stacks' : DRIFT_STATUS_LABELS[option];
  return (
    <TextField
      id="drift-filter"
      select
      size="small"
      label="Filter by drift"
      value={value}
      onChange={event => onChange(event.target.value as DriftFilterValue)}
      style={{ minWidth: 180 }}
      SelectProps={{
        SelectDisplayProps: {
          'aria-label': `Filter by drift: ${labelOf(value)}`,
          'aria-labelledby': undefined,
        } as object,
      }}
    >
      {(['ALL', ...Object.keys(DRIFT_STATUS_LABELS)] as DriftFilterValue[]).map(
        option => (
          <MenuItem key={option} value={option}>
            {labelOf(option)}
          </MenuItem>
        ),
      )}
    </TextField>
  );
};
