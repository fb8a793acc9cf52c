import { spawn, ChildProcess } from 'node:child_process';

export interface CommandResult {
  exitCode: number;
  stdout: string;
  /** The first diagnostic the command printed as `Error: …`, without its prefix. */
  firstError?: string;
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

/**
 * Runs the IaC binary in a working directory. Every output line goes to `onLine` as it
 * comes; stdout is also kept for commands whose output is data (`show -json`, `output -json`),
 * and the first `Error:` diagnostic, which says why a failed command failed.
 */
export class IacTool {
  private running?: ChildProcess;

  constructor(
    private readonly binary: string,
    private readonly onLine: (line: string) => void,
  ) {}

  run(
    args: string[],
    cwd: string,
    options: { captureOnly?: boolean } = {},
  ): Promise<CommandResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.binary, args, {
        cwd,
        env: { ...process.env, TF_IN_AUTOMATION: '1', TF_INPUT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.running = child;
      const stdout: Buffer[] = [];
      let firstError: string | undefined;
      const emit = (line: string) => {
        firstError ??= errorHeadlineOf(line);
        this.onLine(line);
      };
      const forward = (stream: NodeJS.ReadableStream, keep: boolean) => {
        let pending = '';
        stream.on('data', (chunk: Buffer) => {
          if (keep) stdout.push(chunk);
          if (keep && options.captureOnly) return;
          pending += chunk.toString('utf8');
          const lines = pending.split('\n');
          pending = lines.pop() ?? '';
          lines.forEach(emit);
        });
        stream.on('end', () => {
          if (pending && !(keep && options.captureOnly)) emit(pending);
        });
      };
      forward(child.stdout!, true);
      forward(child.stderr!, false);
      // Node says "spawn tofu ENOENT" for a missing binary or a missing directory alike.
      child.on('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'ENOENT'
            ? new Error(
                `Cannot run ${this.binary} in ${cwd}: no such file or directory`,
              )
            : error,
        ),
      );
      child.on('close', code => {
        this.running = undefined;
        resolve({
          exitCode: code ?? 1,
          stdout: Buffer.concat(stdout).toString('utf8'),
          firstError,
        });
      });
    });
  }

  /** Stops the running command, e.g. when the run was cancelled. */
  stop(): void {
    this.running?.kill('SIGTERM');
  }
}
