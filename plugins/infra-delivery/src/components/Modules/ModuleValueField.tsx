import {
  DefaultValueDefinition,
  ModuleInput,
} from '@infra-delivery/plugin-infra-delivery-common';
import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';
import { fallbackOf, needsValue } from './moduleValues';

/** The line under an input's field: its description, its default, and whether it stays. */
function hintOf(
  input: ModuleInput,
  defaults: Map<string, DefaultValueDefinition>,
): string | undefined {
  const fallback = fallbackOf(input, defaults);
  const fallbackText =
    fallback &&
    (fallback.from
      ? `${fallback.value}, from ${fallback.from}`
      : fallback.value);
  return (
    [
      input.description,
      fallbackText !== undefined && `Empty takes the default: ${fallbackText}`,
      input.immutable && 'Fixed once set',
    ]
      .filter(Boolean)
      .join('. ') || undefined
  );
}

/**
 * The field of one input of a module version: a list of its allowed values where it has some,
 * else text; required where no default fills it; said wrong with `problem`, else described.
 */
export const ModuleValueField = ({
  input,
  defaults,
  value,
  problem,
  fixed,
  onChange,
}: {
  input: ModuleInput;
  defaults: Map<string, DefaultValueDefinition>;
  value: string;
  /** What is wrong with the value, as typed or as the service refused it. */
  problem?: string;
  /** Fixed once set, and set: shown, not changed. */
  fixed: boolean;
  onChange: (value: string) => void;
}) => {
  const options = input.values ?? [];
  const required = needsValue(input, defaults);
  return (
    <TextField
      id={`module-instance-value-${input.id}`}
      label={input.label}
      required={required}
      disabled={fixed}
      select={options.length > 0}
      placeholder={input.placeholder}
      value={value}
      error={Boolean(problem)}
      helperText={problem ?? hintOf(input, defaults)}
      onChange={event => onChange(event.target.value)}
    >
      {options.length > 0 && !required && (
        <MenuItem value="">
          <em>{fallbackOf(input, defaults) ? 'Default' : 'None'}</em>
        </MenuItem>
      )}
      {options.map(option => (
        <MenuItem key={option.value} value={option.value}>
          {option.label ?? option.value}
        </MenuItem>
      ))}
    </TextField>
  );
};
