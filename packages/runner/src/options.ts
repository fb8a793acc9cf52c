import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  DEFAULT_RUNNER_POLL_INTERVAL_MS,
  MAX_RUNNER_LABELS,
  normalizeRunnerLabels,
  RUNNER_CLAIM_WAIT_SECONDS,
  RUNNER_LABEL_PATTERN,
  RUNNER_POLL_INTERVAL_MS,
} from '@infra-delivery/plugin-infra-delivery-common';
import { DEFAULT_STOP_GRACE_MS } from './IacTool';
import { DEFAULT_STEP_TIMEOUT_MS } from './stepTimeout';

/** Well within the longest wait the service takes, and within common proxies' idle timeouts. */
const DEFAULT_CLAIM_WAIT_SECONDS = 20;
const MAX_STEP_TIMEOUT_MINUTES = 7 * 24 * 60;

export interface RunnerOptions {
  /** The plugin's base URL, e.g. `http://localhost:7007/api/infra-delivery`. */
  url: string;
  /** A service account's API key. */
  token: string;
  runnerId: string;
  /**
   * This process, told apart from others of the same runner id; made up at start (a UUID) when
   * absent, as the command line leaves it.
   */
  instanceId?: string;
  /** `tofu` or `terraform` (or a path to either). */
  iacBinary: string;
  /** Where each stack gets its working directory. */
  workRoot: string;
  /** Where stack paths are resolved for runs that name no commit: a checkout of the stacks' code. */
  sourceRoot: string;
  /**
   * Check out the commit a git-triggered run names (under `workRoot`/checkouts) and plan that;
   * `false` (`--no-checkout`) pins every run to `sourceRoot`.
   */
  checkout: boolean;
  pollIntervalMs: number;
  /**
   * How long the service may hold a claim while there is no work (it answers as soon as a step
   * is queued); 0 asks and is answered at once, every `pollIntervalMs`.
   */
  waitSeconds: number;
  /**
   * How long a stopped command (a cancelled run, a lost lease, the runner stopping) may take to
   * exit after its interrupt (SIGINT) before it is killed with its processes (SIGKILL);
   * 30 s when absent.
   */
  stopGraceMs?: number;
  /**
   * How long a step may run before the runner stops its command as a cancelled one (SIGINT, then
   * SIGKILL after `stopGraceMs`) and fails it with `InfraDelivery:Runner:STEP_TIMED_OUT`; 0 for
   * no limit; two hours when absent.
   */
  stepTimeoutMs?: number;
  /**
   * How long a command may print nothing before the step's log says that it still runs ("No
   * output from tofu for 5m 00s (still running, pid 123)"), and again every as long; 5 minutes
   * when absent.
   */
  silenceNoticeMs?: number;
  /**
   * How long a heartbeat, a batch of logs or a report may go unanswered before it is tried
   * again; 30 s when absent.
   */
  requestTimeoutMs?: number;
  /** Execute at most one step, then stop (for scripts and tests). */
  once: boolean;
  /** Shown in the portal's runner list. */
  labels: string[];
  /** Shown in the portal's runner list (default: the host's name). */
  hostname: string;
}

export const USAGE = `Usage: infra-delivery-runner --url <plugin url> --token <api key> [options]

Claims the IaC steps of the token's organization and runs them with OpenTofu or Terraform.

  --url <url>            base URL of the plugin, e.g. http://localhost:7007/api/infra-delivery
  --token <key>          a service account's API key (or INFRA_DELIVERY_RUNNER_TOKEN)
  --runner-id <id>       name shown in leases and logs (default: host name and pid)
  --iac-binary <bin>     tofu or terraform, or a path to either (default: tofu)
  --work-root <dir>      working directories, one per stack (default: a temp directory)
  --source-root <dir>    where stack paths are resolved for runs that name no commit
                         (default: the current directory)
  --no-checkout          do not check out the commit of a git-triggered run (push, pull
                         request); plan --source-root for every run instead
  --wait <seconds>       how long the service may hold a claim while there is no work; it
                         answers as soon as a step is queued (default: ${DEFAULT_CLAIM_WAIT_SECONDS},
                         at most ${
                           RUNNER_CLAIM_WAIT_SECONDS.max
                         }; 0 asks every --poll-interval instead)
  --poll-interval <ms>   wait between claims answered at once (with --wait 0, or a service
                         that does not hold claims) (default: ${DEFAULT_RUNNER_POLL_INTERVAL_MS})
  --stop-grace <seconds> how long a stopped command (cancelled run, lost lease, runner
                         stopping) may take to exit after its interrupt (SIGINT) before it
                         is killed with the processes it started (default: ${
                           DEFAULT_STOP_GRACE_MS / 1000
                         })
  --step-timeout <minutes>
                         how long a step may run before it is stopped as a cancelled one
                         is (interrupted, killed after --stop-grace) and fails saying it
                         timed out; 0 for no limit (default: ${
                           DEFAULT_STEP_TIMEOUT_MS / 60_000
                         })
  --labels <a,b>         the runner's labels, comma-separated (e.g. env=prod,region=eu): it
                         is handed only steps of stacks whose required runner labels it
                         carries, all of them (a stack that requires none: any runner)
                         (default: INFRA_DELIVERY_RUNNER_LABELS, else none)
  --once                 execute at most one step, then exit
  --help                 this text

Before it claims a step it checks that --iac-binary runs and --source-root exists. Stopped
(SIGINT, SIGTERM) it finishes the step it executes; stopped again, it interrupts that step
(killed after --stop-grace; a third time, at once) and reports it as stopped. Then it signs
off: the portal lists it as stopped at once.`;

export class UsageError extends Error {}

export function parseOptions(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): RunnerOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      'runner-id': { type: 'string' },
      'iac-binary': { type: 'string' },
      'work-root': { type: 'string' },
      'source-root': { type: 'string' },
      'poll-interval': { type: 'string' },
      wait: { type: 'string' },
      'stop-grace': { type: 'string' },
      'step-timeout': { type: 'string' },
      labels: { type: 'string' },
      once: { type: 'boolean' },
      'no-checkout': { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    return 'help';
  }
  const token = values.token ?? env.INFRA_DELIVERY_RUNNER_TOKEN;
  if (!values.url || !token) {
    throw new UsageError('--url and --token are required');
  }
  const pollIntervalMs = Number(
    values['poll-interval'] ?? DEFAULT_RUNNER_POLL_INTERVAL_MS,
  );
  const { min, max } = RUNNER_POLL_INTERVAL_MS;
  // The runner says its interval with each claim: the service takes these.
  if (
    !Number.isInteger(pollIntervalMs) ||
    pollIntervalMs < min ||
    pollIntervalMs > max
  ) {
    throw new UsageError(
      `--poll-interval is a whole number of milliseconds from ${min} to ${max}`,
    );
  }
  const waitSeconds = Number(values.wait ?? DEFAULT_CLAIM_WAIT_SECONDS);
  if (
    !Number.isInteger(waitSeconds) ||
    waitSeconds < 0 ||
    waitSeconds > RUNNER_CLAIM_WAIT_SECONDS.max
  ) {
    throw new UsageError(
      `--wait is a whole number of seconds from 0 to ${RUNNER_CLAIM_WAIT_SECONDS.max}`,
    );
  }
  const stopGraceSeconds = Number(
    values['stop-grace'] ?? DEFAULT_STOP_GRACE_MS / 1000,
  );
  if (!Number.isFinite(stopGraceSeconds) || stopGraceSeconds < 0) {
    throw new UsageError('--stop-grace is a number of seconds, 0 or more');
  }
  const stepTimeoutMinutes = Number(
    values['step-timeout'] ?? DEFAULT_STEP_TIMEOUT_MS / 60_000,
  );
  // A timer longer than 2^31 ms (24.8 days) fires at once.
  if (
    !Number.isFinite(stepTimeoutMinutes) ||
    stepTimeoutMinutes < 0 ||
    stepTimeoutMinutes > MAX_STEP_TIMEOUT_MINUTES
  ) {
    throw new UsageError(
      `--step-timeout is a number of minutes from 0 (no limit) to ${MAX_STEP_TIMEOUT_MINUTES} (a week)`,
    );
  }
  return {
    url: values.url.replace(/\/+$/, ''),
    token,
    runnerId: values['runner-id'] ?? `${os.hostname()}-${process.pid}`,
    iacBinary: values['iac-binary'] ?? 'tofu',
    workRoot:
      values['work-root'] ?? path.join(os.tmpdir(), 'infra-delivery-runner'),
    // Started through npx or `yarn workspace … start`, the process runs elsewhere: the
    // directory the command was typed in is INIT_CWD.
    sourceRoot: path.resolve(
      values['source-root'] ?? env.INIT_CWD ?? process.cwd(),
    ),
    checkout: !values['no-checkout'],
    pollIntervalMs,
    waitSeconds,
    stopGraceMs: Math.round(stopGraceSeconds * 1000),
    stepTimeoutMs: Math.round(stepTimeoutMinutes * 60_000),
    once: values.once ?? false,
    labels: parseLabels(values.labels ?? env.INFRA_DELIVERY_RUNNER_LABELS),
    hostname: os.hostname(),
  };
}

/**
 * `--labels` (or INFRA_DELIVERY_RUNNER_LABELS): comma-separated, each as a stack may require it
 * (`env=prod`). A label no stack could require (a space in it) would leave the steps meant for
 * this runner waiting, so it is refused at start.
 */
function parseLabels(value: string | undefined): string[] {
  const labels = normalizeRunnerLabels(
    (value ?? '')
      .split(',')
      .map(label => label.trim())
      .filter(Boolean),
  );
  const bad = labels.find(label => !RUNNER_LABEL_PATTERN.test(label));
  if (bad !== undefined) {
    throw new UsageError(
      `--labels: "${bad}" is not a label a stack can require: a letter or digit, then up to 63 letters, digits or _ . : = / - (e.g. env=prod)`,
    );
  }
  if (labels.length > MAX_RUNNER_LABELS) {
    throw new UsageError(`--labels: at most ${MAX_RUNNER_LABELS} labels`);
  }
  return labels;
}
