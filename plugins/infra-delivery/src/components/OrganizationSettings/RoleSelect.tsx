import { Role, ROLES } from '@internal/plugin-infra-delivery-common';
import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';

export const RoleSelect = ({
  id,
  value,
  onChange,
  roles = [...ROLES],
}: {
  id: string;
  value: Role;
  onChange: (role: Role) => void;
  roles?: Role[];
}) => (
  <TextField
    id={id}
    select
    label="Role"
    value={value}
    onChange={event => onChange(event.target.value as Role)}
    style={{ minWidth: 140 }}
  >
    {roles.map(role => (
      <MenuItem key={role} value={role}>
        {role}
      </MenuItem>
    ))}
  </TextField>
);
