import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';

/** One choice of a select: what is kept, and what people read. */
export interface ServiceOption {
  value: string;
  label: string;
}

/**
 * A select over something the service lists (projects, environments, cloud accounts, code
 * sources) in a template's form: it says while the list loads, names the list's error (a 403
 * says why), and offers `emptyLabel` as the way to choose nothing when the field is optional.
 */
export const ServiceSelect = ({
  id,
  label,
  helperText,
  required,
  disabled,
  value,
  options,
  loading,
  error,
  invalid,
  emptyLabel,
  emptyText,
  onChange,
}: {
  id: string;
  label: string;
  helperText?: string;
  required?: boolean;
  disabled?: boolean;
  value?: string;
  options: ServiceOption[];
  loading: boolean;
  error?: Error;
  /** The form found the value wrong: the select is marked, the form says why. */
  invalid?: boolean;
  /** The label of the choice of nothing; without it the field has no such choice. */
  emptyLabel?: string;
  /** What an empty list says instead of "There is no … to choose": how it gets something. */
  emptyText?: string;
  onChange: (value: string | undefined) => void;
}) => {
  const empty = !disabled && !loading && !error && options.length === 0;
  let help = helperText;
  if (loading) help = 'Loading…';
  else if (error) help = error.message;
  else if (empty)
    help = emptyText ?? `There is no ${label.toLowerCase()} to choose`;
  return (
    <TextField
      id={id}
      select
      fullWidth
      margin="normal"
      label={label}
      required={required}
      disabled={disabled || loading || !!error || (empty && !emptyLabel)}
      error={!!error || invalid}
      helperText={help}
      // The help says why a select is disabled ("Choose the project first"): it keeps the
      // readable colour of help text instead of the disabled grey axe finds too faint.
      FormHelperTextProps={{ disabled: false }}
      // A value the list does not (yet) hold reads as no choice, not as a blank entry.
      value={value && options.some(o => o.value === value) ? value : ''}
      onChange={event => onChange((event.target.value as string) || undefined)}
    >
      {emptyLabel && (
        <MenuItem value="">
          <em>{emptyLabel}</em>
        </MenuItem>
      )}
      {options.map(option => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
};
