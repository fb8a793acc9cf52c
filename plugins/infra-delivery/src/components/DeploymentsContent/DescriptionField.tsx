import TextField from '@material-ui/core/TextField';
import { problemOrHint } from './deployFields';

/**
 * A Deploy dialog's Description: the new deployment's name in the history. Its hint says the
 * name the service gives a deployment without one (`defaultName`).
 */
export const DescriptionField = ({
  value,
  problem,
  defaultName,
  onChange,
}: {
  value: string;
  problem: string | undefined;
  defaultName: string;
  onChange: (value: string) => void;
}) => (
  <TextField
    id="deploy-description"
    label="Description"
    autoComplete="off"
    value={value}
    {...problemOrHint(
      problem,
      `Its name in the history; without one “${defaultName}”`,
    )}
    onChange={event => onChange(event.target.value)}
  />
);
