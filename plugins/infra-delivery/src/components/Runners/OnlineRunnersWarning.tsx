import { useApi } from '@backstage/frontend-plugin-api';
import { Runner } from '@infra-delivery/plugin-infra-delivery-common';
import Typography from '@material-ui/core/Typography';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { WarningText } from '../common/WarningText';

/** The most runners one page of the list gives: enough to see every online one. */
const ONLINE_RUNNERS_LIMIT = 500;

/** "a", "a and b", "a, b and c". */
function listed(names: string[]): string {
  return names.length > 1
    ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
    : names[0];
}

/**
 * In the dialog that revokes a service account's key or deletes the account: which of its
 * runners are online now, that they stop, and whether runs are then left without a runner.
 * Read when the dialog opens; says nothing when no runner of the account is online, or when
 * the runners cannot be read. Revoking the key of the only runner left nothing to say that runs
 * would wait for a runner. A step one of them executes is named: the service queues it again
 * at once, and it starts over.
 */
export const OnlineRunnersWarning = ({
  serviceAccountId,
  signsInWith,
  ifThisKey,
}: {
  serviceAccountId: string;
  /** What the runners sign in with, as the sentence says it: "this account", "this key". */
  signsInWith: string;
  /** The account has other keys: the runners stop only if they use this one. */
  ifThisKey?: boolean;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const { value: online } = useAsync(async (): Promise<Runner[]> => {
    const page = await client.call('listRunners', {
      query: { status: 'ONLINE', limit: ONLINE_RUNNERS_LIMIT },
    });
    return page.data.filter(runner => runner.status === 'ONLINE');
  }, [client]);
  const affected = (online ?? []).filter(
    runner => runner.serviceAccountId === serviceAccountId,
  );
  if (affected.length === 0) {
    return null;
  }
  const others = (online ?? []).length > affected.length;
  const one = affected.length === 1;
  const names = listed(affected.map(runner => runner.runnerId));
  // What they are executing stops with them.
  const working = affected.flatMap(runner =>
    runner.currentStepName ? [runner.currentStepName] : [],
  );
  return (
    <Typography paragraph>
      <WarningText>
        {one ? 'Runner' : 'Runners'} {names} {one ? 'is' : 'are'} online and{' '}
        {one ? 'signs' : 'sign'} in with {signsInWith}:{' '}
        {ifThisKey && 'if it is this key, '}
        {one ? 'it stops' : 'they stop'}
        {others
          ? ', and the other online runners take the runs.'
          : ', and runs wait until another runner connects.'}
        {working.length > 0 &&
          ` ${listed(working)} ${
            working.length === 1 ? 'is' : 'are'
          } cut short and queued again at once, to start over on the next runner.`}
      </WarningText>
    </Typography>
  );
};
