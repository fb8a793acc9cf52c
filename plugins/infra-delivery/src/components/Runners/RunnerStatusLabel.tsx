import { Runner } from '@infra-delivery/plugin-infra-delivery-common';
import { StatusLabel } from '../common/StatusLabel';

/**
 * A runner's status as a word, beside the status colour (read out as the word alone): a runner
 * that said it stops reads "Stopped", without the warning of one that went silent.
 */
export const RunnerStatusLabel = ({
  runner,
}: {
  runner: Pick<Runner, 'status' | 'signedOffAt'>;
}) => {
  if (runner.status === 'ONLINE') {
    return <StatusLabel kind="ok" label="Online" />;
  }
  return runner.signedOffAt ? (
    <StatusLabel kind="aborted" label="Stopped" />
  ) : (
    <StatusLabel kind="warning" label="Offline" />
  );
};
