import { Link } from '@backstage/core-components';
import {
  formatDuration,
  LeasedStep,
  StepExecution,
  leasedRunnerSilentAfterMs,
  StepLease,
  unheardSince,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { useNowAsOfData } from '../common/DataAsOf';
import { WarningText } from '../common/WarningText';
import { useRunnersCardLink } from '../Runners/useRunnersCardLink';

/**
 * A runner is heard from within a second of its claim (the reference runner's first log line):
 * one not heard from since, this long after its claim, never took up the claim's answer.
 */
export const CLAIM_UNANSWERED_AFTER_MS = 10_000;

/**
 * How long ago a runner claimed a step (`lease.claimedAt`) without being heard from since: a
 * runner frozen (SIGSTOP, a host suspended) while its claim was held got the step, and it read
 * "Running" with nothing wrong for half the lease. Undefined where it was heard from, or where
 * the service does not say.
 */
function unansweredClaimMs(lease: StepLease, now: number): number | undefined {
  if (!lease.claimedAt || !lease.lastHeardAt) return undefined;
  const claimed = Date.parse(lease.claimedAt);
  const heard = Math.max(
    Date.parse(lease.renewedAt),
    Date.parse(lease.lastHeardAt),
  );
  const sinceClaimMs = now - unheardSince(claimed, lease.serviceReachableSince);
  return heard - claimed < 1000 && sinceClaimMs >= CLAIM_UNANSWERED_AFTER_MS
    ? sinceClaimMs
    : undefined;
}

/**
 * How long a runner may go unheard (no heartbeat, no log append) before it has most likely
 * stopped: three of the heartbeat intervals it says it keeps, and at least ten seconds. Where it
 * does not say (an older runner: the reference runner says it with its claim), a third of the lease, the
 * interval at which such runners renew it.
 */
function quietAfterMs(lease: StepLease): number {
  if (lease.heartbeatIntervalMs) {
    return leasedRunnerSilentAfterMs(lease.heartbeatIntervalMs);
  }
  return (Date.parse(lease.expiresAt) - Date.parse(lease.renewedAt)) / 3;
}

/**
 * How long the runner of a step has not renewed its lease, and how long it has left. A runner
 * that says its heartbeat interval is silent once it has not been heard from (a heartbeat, a log
 * append) for three of them, at least ten seconds: a runner killed mid-step read silent only
 * 20–30 s later. Any runner that let half the lease pass without renewing it has missed
 * heartbeats, also while its logs still arrive. So is one not heard from since its claim, ten
 * seconds after it (`unansweredMs`). Each counts from the service's return where it came back
 * since (`serviceReachableSince`): a runner cannot be heard by a service that is down.
 */
export function leaseSilence(lease: StepLease, now: number) {
  const renewed = Date.parse(lease.renewedAt);
  const expires = Date.parse(lease.expiresAt);
  // Not while the service was down: it could not hear the runner (`serviceReachableSince`).
  const silentMs = Math.max(
    0,
    now - unheardSince(renewed, lease.serviceReachableSince),
  );
  const unansweredMs = unansweredClaimMs(lease, now);
  const heard = unheardSince(
    Math.max(renewed, Date.parse(lease.lastHeardAt ?? '') || 0),
    lease.serviceReachableSince,
  );
  const quiet =
    lease.heartbeatIntervalMs !== undefined &&
    now - heard > quietAfterMs(lease);
  return {
    silent:
      unansweredMs !== undefined || quiet || silentMs > (expires - renewed) / 2,
    silentMs,
    unansweredMs,
    requeueInMs: expires - now,
  };
}

/**
 * What people call a step's runner: its service account's name (as the Runners card does) with
 * the runner's id, the process the card lists under that name ("Build hosts (build-host-1)");
 * its id alone where the step has no name (claimed before names were kept, or the account
 * deleted). Two runners started with one API key both read "on Local runner": nothing told which
 * process held the step, which one went silent, or which to restart.
 */
export const runnerNameOf = (runner: {
  runnerId?: string;
  runnerName?: string;
}) =>
  runner.runnerName && runner.runnerId && runner.runnerName !== runner.runnerId
    ? `${runner.runnerName} (${runner.runnerId})`
    : runner.runnerName ?? runner.runnerId;

/**
 * "last heard from 4s ago": how long ago the service last heard from a runner (`at`, its
 * lastSeenAt or a lease's lastHeardAt), so that a runner busy streaming logs reads alive.
 */
export function lastHeardText(at: string, now: number): string {
  const ms = now - Date.parse(at);
  return ms < 1000
    ? 'heard from just now'
    : `last heard from ${formatDuration(ms)} ago`;
}

/**
 * Whether a silent lease's runner still sends its logs: heard from (its log appends, its claims;
 * `lastHeardAt`) since its last heartbeat, and more recently than makes it silent (three of its
 * heartbeat intervals; a third of the lease where it does not say them). A runner killed a few
 * seconds after a heartbeat was heard from after it too, and read "its logs still arrive, so it
 * is most likely busy" until its lease ran out. Undefined where the service does not say (an
 * older one).
 */
function logsStillArrive(lease: StepLease, now: number): boolean | undefined {
  if (!lease.lastHeardAt) return undefined;
  const renewed = Date.parse(lease.renewedAt);
  const heard = Date.parse(lease.lastHeardAt);
  return heard - renewed >= 1000 && now - heard < quietAfterMs(lease);
}

/**
 * A silent lease's runner, as a person needs it told: busy but not renewing its lease ("has sent
 * no heartbeat for 35s; last heard from 4s ago"), or gone quiet altogether ("has not been heard
 * from for 35s", since the later of its last heartbeat and its last log append).
 */
function silentRunnerText(
  lease: StepLease,
  {
    silentMs,
    unansweredMs,
    now,
  }: ReturnType<typeof leaseSilence> & { now: number },
): string {
  const name = runnerNameOf(lease);
  if (unansweredMs !== undefined) {
    return `${name} took this step ${formatDuration(
      unansweredMs,
    )} ago and has not been heard from since`;
  }
  const noHeartbeat = `${name} has sent no heartbeat for ${formatDuration(
    silentMs,
  )}`;
  switch (logsStillArrive(lease, now)) {
    case undefined:
      return noHeartbeat;
    case true:
      return `${noHeartbeat}; ${lastHeardText(lease.lastHeardAt!, now)}`;
    default: {
      const quietMs = Math.min(
        silentMs,
        Math.max(
          0,
          now -
            unheardSince(
              Date.parse(lease.lastHeardAt!),
              lease.serviceReachableSince,
            ),
        ),
      );
      return `${name} has not been heard from for ${formatDuration(quietMs)}`;
    }
  }
}

function useLeaseSilence(lease: StepLease | undefined) {
  // As of the view's last answer: the service could not tell of a heartbeat since.
  const now = useNowAsOfData(1_000, lease !== undefined);
  return lease && { ...leaseSilence(lease, now), now };
}

/**
 * Who holds a lease while it reports (`whileReporting`, nothing without it; with `heard`, when
 * its runner was last heard from), or, once it is silent, how long it has been, with a warning
 * icon. Text, in the style of where it stands.
 */
export const LeaseText = ({
  lease,
  whileReporting,
  heard,
}: {
  lease: StepLease;
  whileReporting?: string;
  heard?: boolean;
}) => {
  const silence = useLeaseSilence(lease);
  if (!silence?.silent) {
    const parts = [
      whileReporting,
      heard &&
        silence &&
        lastHeardText(lease.lastHeardAt ?? lease.renewedAt, silence.now),
    ];
    return <>{parts.filter(Boolean).join(' · ')}</>;
  }
  return <WarningText>{silentRunnerText(lease, silence)}</WarningText>;
};

/**
 * Beside a step's status: which runner runs it, and how long it has been silent, or which runner
 * ran it once it ended. Plain text: it stands in the step's header, which is a button.
 */
export const StepRunnerCaption = ({ step }: { step: StepExecution }) => {
  if (!step.lease && !step.runnerId) {
    return null;
  }
  return (
    // The size of the captions beside it: a status label's body text stood out.
    <Typography variant="caption" color="textSecondary">
      {step.lease ? (
        <LeaseText
          lease={step.lease}
          whileReporting={`on ${runnerNameOf(step.lease)}`}
          heard
        />
      ) : (
        `on ${runnerNameOf(step)}`
      )}
    </Typography>
  );
};

/**
 * Under a running run's state in a list: its step and runner ("Plan on build-host-1"), or that
 * the runner has gone silent, so that a stopped runner does not read as a slow plan there either.
 */
export const LeasedStepNote = ({ step }: { step: LeasedStep }) => (
  <LeaseText
    lease={step.lease}
    whileReporting={`${step.name} on ${runnerNameOf(step.lease)}`}
  />
);

/**
 * Above a running step's logs, once its runner is silent: that the step will be queued again
 * for the next runner, and when. Until then the step reads "Running" with nothing to tell a
 * stopped runner from a slow plan.
 */
export const RunnerSilenceNotice = ({ step }: { step: StepExecution }) => {
  const silence = useLeaseSilence(step.lease);
  const runners = useRunnersCardLink();
  if (!step.lease || !silence?.silent) {
    return null;
  }
  const nextAttempt = step.attemptEpoch + 1;
  return (
    <Box marginBottom={2}>
      <Alert severity="warning" role="status">
        <AlertTitle>Runner {silentRunnerText(step.lease, silence)}</AlertTitle>
        <Typography variant="body2">
          {silence.unansweredMs !== undefined
            ? 'It has sent neither a log line nor a heartbeat: it may be frozen, or the answer to its claim was lost with its connection. '
            : logsStillArrive(step.lease, silence.now) &&
              'Its logs still arrive, so it is most likely busy, but its lease is not renewed. '}
          {silence.requeueInMs > 0
            ? `Unless it sends a heartbeat within ${formatDuration(
                silence.requeueInMs,
              )}, the step is queued again`
            : 'Its lease has run out: the step is being queued again'}
          , and the next runner starts it over as attempt {nextAttempt}. The
          logs so far stay.
          {runners && (
            <>
              {' '}
              The <Link to={runners}>Organization page</Link> lists the runners.
            </>
          )}
        </Typography>
      </Alert>
    </Box>
  );
};
