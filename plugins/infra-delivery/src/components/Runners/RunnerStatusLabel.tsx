import { RunnerStatus } from '@infra-delivery/plugin-infra-delivery-common';
import { StatusLabel } from '../common/StatusLabel';

/** A runner's status as a word, beside the status colour (read out as the word alone). */
export const RunnerStatusLabel = ({ status }: { status: RunnerStatus }) =>
  status === 'ONLINE' ? (
    <StatusLabel kind="ok" label="Online" />
  ) : (
    <StatusLabel kind="warning" label="Offline" />
  );
