import { Role, ROLES } from '@infra-delivery/plugin-infra-delivery-common';
import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';
import { ROLE_LABELS } from '../common/labels';

export const RoleSelect = ({
  id,
  value,
  onChange,
  roles = [...ROLES],
  label = 'Role',
  hideLabel = false,
  disabled = false,
  helperText,
}: {
  id: string;
  value: Role;
  onChange: (role: Role) => void;
  roles?: Role[];
  /** The accessible name; shown above the field unless `hideLabel` (in a table's Role column). */
  label?: string;
  hideLabel?: boolean;
  disabled?: boolean;
  /** What the roles allow, under the field in a dialog. */
  helperText?: string;
}) => (
  <TextField
    id={id}
    select
    label={hideLabel ? undefined : label}
    value={value}
    disabled={disabled}
    helperText={helperText}
    onChange={event => onChange(event.target.value as Role)}
    style={{ minWidth: 140 }}
    SelectProps={{
      // The name says what the field is and what it holds ("Role of a@b.c: Member"), so that
      // it contains the text people see, whether or not the label is shown.
      SelectDisplayProps: {
        'aria-label': `${label}: ${ROLE_LABELS[value]}`,
        'aria-labelledby': undefined,
      } as object,
    }}
  >
    {roles.map(role => (
      <MenuItem key={role} value={role}>
        {ROLE_LABELS[role]}
      </MenuItem>
    ))}
  </TextField>
);
