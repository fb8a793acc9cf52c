import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from './options';

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * The IaC binary's absolute path: `binary` itself when it is a path (resolved against `cwd`,
 * since each command runs in a stack's working directory), the first executable of that name on
 * `PATH` otherwise. A runner whose binary does not run would claim steps only to fail each one
 * ("spawn tofu ENOENT"): it must not start.
 */
export async function resolveIacBinary(
  binary: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Promise<string> {
  if (binary.includes('/') || binary.includes(path.sep)) {
    const file = path.resolve(cwd, binary);
    if (await isExecutableFile(file)) {
      return file;
    }
    throw new UsageError(
      `--iac-binary ${binary}: ${file} is not an executable file`,
    );
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.resolve(cwd, dir, binary);
    if (await isExecutableFile(file)) {
      return file;
    }
  }
  throw new UsageError(
    `--iac-binary ${binary}: no executable ${binary} on PATH. Install OpenTofu (https://opentofu.org/docs/intro/install/) or Terraform, or pass the binary's path`,
  );
}

/** Terraform before 0.12 has no `show -json`: the runner could report no plan. */
const OLDEST_TERRAFORM = { major: 0, minor: 12 };

/**
 * Runs `<binary> version` and gives back its first line ("Terraform v1.9.8", "OpenTofu v1.8.2").
 * A binary that is there but does not run (built for another architecture, a broken wrapper, a
 * missing library) or a Terraform too old to write a plan as JSON made the runner connect and
 * claim each step pressed only to fail it at once ("terraform init exited with 126"), and
 * Retry went to the same runner: it must not start.
 */
export async function checkIacBinaryRuns(
  binary: string,
  timeoutMs = 30_000,
): Promise<string> {
  const { failure, stdout, stderr } = await new Promise<{
    failure?: string;
    stdout: string;
    stderr: string;
  }>(resolve => {
    execFile(binary, ['version'], { timeout: timeoutMs }, (error, out, err) => {
      let failed: string | undefined;
      if (error?.killed) {
        failed = `did not answer within ${timeoutMs / 1000}s`;
      } else if (error) {
        failed =
          typeof error.code === 'number'
            ? `exited with ${error.code}`
            : `failed (${error.code ?? error.message})`;
      }
      resolve({ failure: failed, stdout: String(out), stderr: String(err) });
    });
  });
  const firstLine = (text: string) =>
    text
      .split('\n')
      .map(line => line.trim())
      .find(Boolean);
  if (failure) {
    const said = firstLine(stderr) ?? firstLine(stdout);
    throw new UsageError(
      `--iac-binary ${binary} does not run: \`${path.basename(
        binary,
      )} version\` ${failure}${said ? `: ${said}` : ''}`,
    );
  }
  const version = firstLine(stdout) ?? '';
  const terraform = /^Terraform v(\d+)\.(\d+)/.exec(version);
  if (
    terraform &&
    (Number(terraform[1]) < OLDEST_TERRAFORM.major ||
      (Number(terraform[1]) === OLDEST_TERRAFORM.major &&
        Number(terraform[2]) < OLDEST_TERRAFORM.minor))
  ) {
    throw new UsageError(
      `--iac-binary ${binary} is ${version}: the runner needs Terraform ${OLDEST_TERRAFORM.major}.${OLDEST_TERRAFORM.minor} or later (for \`show -json\`), or OpenTofu`,
    );
  }
  return version;
}

/**
 * Checks that `--source-root` is a directory: a runner without its stacks' code would fail every
 * run that names no commit.
 */
export async function checkSourceRoot(sourceRoot: string): Promise<void> {
  const isDirectory = await stat(sourceRoot).then(
    s => s.isDirectory(),
    () => false,
  );
  if (!isDirectory) {
    throw new UsageError(
      `--source-root ${sourceRoot} is not a directory: it holds the code of the stacks this runner plans`,
    );
  }
}

/**
 * Settles what in the environment made the IaC tool warn in every step's log, and says so once
 * at start: a `TF_CLI_CONFIG_FILE` naming no file made each plan and apply end with "There are
 * some problems with the CLI configuration … Unable to open", which read as a failure in the
 * portal. The tool reads no configuration from a file that is not there, so the runner leaves
 * the variable out of `env` (the environment its commands inherit) and runs it the same way,
 * without the warning.
 */
export async function settleToolEnvironment(
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const configFile = env.TF_CLI_CONFIG_FILE;
  if (!configFile) return [];
  const exists = await stat(configFile).then(
    s => s.isFile(),
    () => false,
  );
  if (exists) return [];
  delete env.TF_CLI_CONFIG_FILE;
  return [
    `TF_CLI_CONFIG_FILE names ${configFile}, which is not a file: the IaC tool runs without it (as it would, but without a warning at the end of every step's log)`,
  ];
}
