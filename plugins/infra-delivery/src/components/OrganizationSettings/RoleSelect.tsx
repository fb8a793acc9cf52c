import { Role, ROLES } from '@infra-delivery/plugin-infra-delivery-common';
import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';

export const RoleSelect = ({
  id,
  value,
  onChange,
  roles = [...ROLES],
  label = 'Role',
  hideLabel = false,
  disabled = false,
}: {
  id: string;
  value: Role;
  onChange: (role: Role) => void;
  roles?: Role[];
  /** The accessible name; shown above the field unless `hideLabel` (in a table's Role column). */
  label?: string;
  hideLabel?: boolean;
  disabled?: boolean;
}) => (
  <TextField
    id={id}
    select
    label={hideLabel ? undefined : label}
    value={value}
    disabled={disabled}
    onChange={event => onChange(event.target.value as Role)}
    style={{ minWidth: 140 }}
    SelectProps={{ SelectDisplayProps: { 'aria-label': label } as object }}
  >
    {roles.map(role => (
      <MenuItem key={role} value={role}>
        {role}
      </MenuItem>
    ))}
  </TextField>
);
