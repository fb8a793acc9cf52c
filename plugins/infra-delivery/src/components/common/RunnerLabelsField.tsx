import { runnerLabelsProblem } from '@infra-delivery/plugin-infra-delivery-common';
import TextField from '@material-ui/core/TextField';

/**
 * The runner labels a stack requires, typed comma- or space-separated (`env=prod, region=eu`):
 * where a stack is created (the template's field) and where its settings change (the settings
 * dialog). What a runner could not carry is said under the field as it is typed, then what the
 * service refused (`refused`), else `hint`.
 */
export const RunnerLabelsField = ({
  id,
  value,
  hint,
  refused,
  problemSaidBelow,
  onChange,
  onBlur,
}: {
  id: string;
  value: string;
  hint: string;
  refused?: string;
  /** The form lists the field's errors under it already (the scaffolder's, after Next). */
  problemSaidBelow?: boolean;
  onChange: (text: string) => void;
  onBlur?: () => void;
}) => {
  const problem = runnerLabelsProblem(value) ?? refused;
  return (
    <TextField
      id={id}
      label="Runner labels"
      placeholder="env=prod"
      autoComplete="off"
      value={value}
      error={Boolean(problem)}
      helperText={problem ? !problemSaidBelow && problem : hint}
      onChange={event => onChange(event.target.value)}
      onBlur={onBlur}
    />
  );
};
