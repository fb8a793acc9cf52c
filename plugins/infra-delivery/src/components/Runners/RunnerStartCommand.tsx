import FormControlLabel from '@material-ui/core/FormControlLabel';
import Radio from '@material-ui/core/Radio';
import RadioGroup from '@material-ui/core/RadioGroup';
import { useState } from 'react';
import { RunnerCommand } from './RunnerCommand';
import { IacBinary, useRunnerStartCommand } from './runnerCommand';

/**
 * The command that starts a runner with `token`, for the IaC tool the person picks (the
 * runner's machine has one of them, and the runner refuses to start without it).
 */
export const RunnerStartCommand = ({
  token,
  labels,
}: {
  token: string;
  /** The labels the runner is to carry (`--labels`): those a waiting stack requires. */
  labels?: string[];
}) => {
  const [iacBinary, setIacBinary] = useState<IacBinary>('tofu');
  const command = useRunnerStartCommand(token, iacBinary, labels);
  return (
    <>
      <RadioGroup
        row
        aria-label="The runner plans and applies with"
        value={iacBinary}
        onChange={event => setIacBinary(event.target.value as IacBinary)}
      >
        <FormControlLabel
          value="tofu"
          control={<Radio size="small" color="primary" />}
          label="OpenTofu"
        />
        <FormControlLabel
          value="terraform"
          control={<Radio size="small" color="primary" />}
          label="Terraform"
        />
      </RadioGroup>
      {command && <RunnerCommand command={command} />}
    </>
  );
};
