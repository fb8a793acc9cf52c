import { Runner } from '@infra-delivery/plugin-infra-delivery-common';
import { StatusLabel } from '../common/StatusLabel';
import { useRunnerSilent } from './useRunnerSilent';

/**
 * A runner's status as a word, beside the status colour (read out as the word alone): a runner
 * that said it stops reads "Stopped", without the warning of one that went silent; an ONLINE
 * runner that has most likely stopped (`useRunnerSilent`) reads "Silent" until the online window
 * lets it go OFFLINE.
 */
export const RunnerStatusLabel = ({ runner }: { runner: Runner }) => {
  const silent = useRunnerSilent(runner);
  if (runner.status === 'ONLINE') {
    return silent ? (
      <StatusLabel kind="warning" label="Silent" />
    ) : (
      <StatusLabel kind="ok" label="Online" />
    );
  }
  return runner.signedOffAt ? (
    <StatusLabel kind="aborted" label="Stopped" />
  ) : (
    <StatusLabel kind="warning" label="Offline" />
  );
};
