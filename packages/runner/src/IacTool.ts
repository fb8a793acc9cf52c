import { spawn, ChildProcess } from 'node:child_process';
import { BackendErrorReader } from './backendUnreachable';
import { SecretRedactor } from './redaction';
import { StateLock, StateLockReader } from './stateLock';

export interface CommandResult {
  exitCode: number;
  stdout: string;
  /** The first diagnostic the command printed as `Error: …`, without its prefix. */
  firstError?: string;
  /** Why the command was stopped (`IacTool.stop`), when it was. */
  stopped?: string;
  /** The lock held by another command, when this one could not acquire the state's lock. */
  stateLock?: StateLock;
  /** The backend's words, when the command could not reach the stack's backend. */
  backendUnreachable?: string;
}

/** Longest error summary kept: a diagnostic's headline, not its whole explanation. */
const ERROR_SUMMARY_LENGTH = 300;

/**
 * The headline of an `Error: …` diagnostic line, with or without the box that Terraform and
 * OpenTofu draw around diagnostics (`│ Error: …`); undefined for any other line.
 */
export function errorHeadlineOf(line: string): string | undefined {
  const match = /^[\s│|]*Error: (.+)$/.exec(line);
  return match?.[1].trim().slice(0, ERROR_SUMMARY_LENGTH) || undefined;
}

/** Process groups: POSIX only. On Windows the command alone is signalled. */
const GROUPS = process.platform !== 'win32';

/** How long a stopped command may take to exit before it is killed (`--stop-grace`). */
export const DEFAULT_STOP_GRACE_MS = 30_000;
/** How long output is still read once the command exited, before its pipes are let go. */
export const DEFAULT_DRAIN_MS = 2_000;

export interface IacToolOptions {
  /** How long a stopped command may take to exit after its interrupt before it is killed. */
  stopGraceMs?: number;
  /**
   * How long the output is still read once the command exited: a process it left behind (a
   * provider, a provisioner's background job) may hold the pipes open for ever.
   */
  drainMs?: number;
  /**
   * Masks credentials in every line before anything reads it; by default the secrets of the
   * runner's environment, which the commands inherit.
   */
  redactor?: SecretRedactor;
}

interface Running {
  child: ChildProcess;
  exited: boolean;
  /** Why it was stopped, once it was. */
  stopReason?: string;
  killTimer?: ReturnType<typeof setTimeout>;
}

/**
 * Sends a signal to the command's process group (the command, its providers and whatever they
 * started), or to the command alone where there are no groups. The group is the command's own
 * (it is spawned detached, as the leader of a new group), so nothing else is signalled; a group
 * that is gone already is no error.
 */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined) return;
  try {
    if (GROUPS) {
      process.kill(-child.pid, signal);
    } else {
      child.kill(signal);
    }
  } catch {
    // ESRCH: every process of the group has exited.
  }
}

/**
 * Runs the IaC binary in a working directory. Every output line goes to `onLine` as it
 * comes; stdout is also kept for commands whose output is data (`show -json`, `output -json`),
 * and the first `Error:` diagnostic, which says why a failed command failed.
 *
 * `stop` interrupts the command the way Ctrl-C at a terminal does: SIGINT to its process group.
 * Terraform and OpenTofu then stop gracefully (they finish or cancel the operations under way,
 * write the state and release its lock), and their providers ignore SIGINT and are stopped by
 * the tool; SIGTERM instead would kill the providers in the middle of their calls. A command
 * still running after the grace period is killed with its whole group (SIGKILL). A command
 * that exited is settled at most `drainMs` later, even if a process it left behind holds its
 * output open. Once stopped, the tool runs no further command of the step.
 */
export class IacTool {
  private running?: Running;
  private stopReason?: string;
  private readonly stopGraceMs: number;
  private readonly drainMs: number;
  /** Masks credentials in the commands' output; more are added as they become known. */
  readonly redactor: SecretRedactor;

  constructor(
    private readonly binary: string,
    private readonly onLine: (line: string) => void,
    options: IacToolOptions = {},
  ) {
    this.stopGraceMs = options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS;
    this.drainMs = options.drainMs ?? DEFAULT_DRAIN_MS;
    this.redactor = options.redactor ?? SecretRedactor.fromEnv(process.env);
  }

  /** Why the tool was stopped, once it was. */
  get stopped(): string | undefined {
    return this.stopReason;
  }

  /** The process id of the command running now. */
  get pid(): number | undefined {
    return this.running?.child.pid;
  }

  run(
    args: string[],
    cwd: string,
    options: { captureOnly?: boolean } = {},
  ): Promise<CommandResult> {
    if (this.stopReason) {
      return Promise.resolve({
        exitCode: 1,
        stdout: '',
        stopped: this.stopReason,
      });
    }
    return new Promise((resolve, reject) => {
      const child = spawn(this.binary, args, {
        cwd,
        env: { ...process.env, TF_IN_AUTOMATION: '1', TF_INPUT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: GROUPS,
      });
      const running: Running = { child, exited: false };
      this.running = running;
      const stdout: Buffer[] = [];
      let firstError: string | undefined;
      const stateLock = new StateLockReader();
      const backend = new BackendErrorReader(args[0]);
      const emit = (output: string, fromStdout: boolean) => {
        const line = this.redactor.redact(output);
        firstError ??= errorHeadlineOf(line);
        stateLock.read(line);
        backend.read(line, fromStdout);
        this.onLine(line);
      };
      const rests: (() => void)[] = [];
      /** `keep`: the command's stdout, kept whole (its stderr is only read). */
      const forward = (stream: NodeJS.ReadableStream, keep: boolean) => {
        let pending = '';
        stream.on('data', (chunk: Buffer) => {
          if (keep) stdout.push(chunk);
          if (keep && options.captureOnly) return;
          pending += chunk.toString('utf8');
          const lines = pending.split('\n');
          pending = lines.pop() ?? '';
          lines.forEach(line => emit(line, keep));
        });
        const rest = () => {
          if (pending && !(keep && options.captureOnly)) emit(pending, keep);
          pending = '';
        };
        stream.on('end', rest);
        rests.push(rest);
      };
      forward(child.stdout!, true);
      forward(child.stderr!, false);
      let settled = false;
      let drainTimer: ReturnType<typeof setTimeout> | undefined;
      const settle = (code: number | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(drainTimer);
        clearTimeout(running.killTimer);
        if (this.running === running) this.running = undefined;
        rests.forEach(rest => rest());
        resolve({
          exitCode: code ?? 1,
          stdout: Buffer.concat(stdout).toString('utf8'),
          firstError,
          ...(running.stopReason ? { stopped: running.stopReason } : {}),
          ...(stateLock.lock ? { stateLock: stateLock.lock } : {}),
          ...(backend.unreachable
            ? { backendUnreachable: backend.unreachable }
            : {}),
        });
      };
      // Node says "spawn tofu ENOENT" for a missing binary or a missing directory alike.
      child.on('error', (error: NodeJS.ErrnoException) => {
        if (settled) return;
        settled = true;
        if (this.running === running) this.running = undefined;
        reject(
          error.code === 'ENOENT'
            ? new Error(
                `Cannot run ${this.binary} in ${cwd}: no such file or directory`,
              )
            : error,
        );
      });
      child.on('exit', code => {
        running.exited = true;
        if (running.stopReason) {
          // What a stopped command left behind goes with it.
          clearTimeout(running.killTimer);
          signalGroup(child, 'SIGKILL');
        }
        // The output still under way is read; a process left holding the pipes is not waited
        // for.
        drainTimer = setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          settle(code);
        }, this.drainMs);
      });
      child.on('close', code => settle(code));
    });
  }

  /**
   * Stops the step's command, e.g. when the run was cancelled: interrupts it (SIGINT to its
   * group), then kills the group if it has not exited within the grace period. No further
   * command of the step runs. Stopping again changes nothing; `kill` does not wait.
   */
  stop(reason = 'stopped'): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    const running = this.running;
    if (!running || running.exited) return;
    running.stopReason = reason;
    signalGroup(running.child, 'SIGINT');
    running.killTimer = setTimeout(
      () => signalGroup(running.child, 'SIGKILL'),
      this.stopGraceMs,
    );
  }

  /** Kills the step's command and its group at once (SIGKILL), without a grace period. */
  kill(reason = 'killed'): void {
    this.stop(reason);
    const running = this.running;
    if (!running) return;
    clearTimeout(running.killTimer);
    signalGroup(running.child, 'SIGKILL');
  }
}
