import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from './options';
import {
  checkIacBinaryRuns,
  checkSourceRoot,
  resolveIacBinary,
  settleToolEnvironment,
} from './startupChecks';

describe('the runner’s startup checks', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'runner-startup-'));
    await mkdir(path.join(dir, 'bin'));
    await writeFile(path.join(dir, 'bin', 'tofu'), '#!/bin/sh\n');
    await chmod(path.join(dir, 'bin', 'tofu'), 0o755);
    await writeFile(path.join(dir, 'bin', 'terraform'), 'not executable');
  });

  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('finds a binary named alone on PATH, skipping directories without it', async () => {
    const env = { PATH: ['/no/such/dir', path.join(dir, 'bin')].join(':') };
    await expect(resolveIacBinary('tofu', env)).resolves.toBe(
      path.join(dir, 'bin', 'tofu'),
    );
  });

  it('resolves a relative path against the directory the runner starts in', async () => {
    // Commands run in each stack's working directory, where a relative path means nothing.
    await expect(resolveIacBinary('bin/tofu', {}, dir)).resolves.toBe(
      path.join(dir, 'bin', 'tofu'),
    );
    await expect(resolveIacBinary('./bin/tofu', {}, dir)).resolves.toBe(
      path.join(dir, 'bin', 'tofu'),
    );
  });

  it('refuses a binary that is not on PATH, and says how to get one', async () => {
    const error = await resolveIacBinary('tofu', {
      PATH: '/no/such/dir',
    }).catch(e => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(
      "--iac-binary tofu: no executable tofu on PATH. Install OpenTofu (https://opentofu.org/docs/intro/install/) or Terraform, or pass the binary's path",
    );
  });

  it('refuses a path to a missing or non-executable file', async () => {
    await expect(resolveIacBinary('bin/tofu.exe', {}, dir)).rejects.toThrow(
      `--iac-binary bin/tofu.exe: ${path.join(
        dir,
        'bin',
        'tofu.exe',
      )} is not an executable file`,
    );
    await expect(
      resolveIacBinary('terraform', { PATH: path.join(dir, 'bin') }),
    ).rejects.toThrow('no executable terraform on PATH');
    await expect(resolveIacBinary('./bin', {}, dir)).rejects.toThrow(
      'is not an executable file',
    );
  });

  it('accepts a source root that is a directory, and refuses anything else', async () => {
    await expect(checkSourceRoot(dir)).resolves.toBeUndefined();
    await expect(checkSourceRoot(path.join(dir, 'missing'))).rejects.toThrow(
      `--source-root ${path.join(dir, 'missing')} is not a directory`,
    );
    await expect(
      checkSourceRoot(path.join(dir, 'bin', 'tofu')),
    ).rejects.toBeInstanceOf(UsageError);
  });
});

describe('settleToolEnvironment', () => {
  it('runs the tool without a TF_CLI_CONFIG_FILE that names no file, and says so once', async () => {
    const where = await mkdtemp(path.join(os.tmpdir(), 'tool-env-'));
    const missing = path.join(where, '.terraformrc');
    const env: NodeJS.ProcessEnv = {
      TF_CLI_CONFIG_FILE: missing,
      PATH: '/bin',
    };
    expect(await settleToolEnvironment(env)).toEqual([
      `TF_CLI_CONFIG_FILE names ${missing}, which is not a file: the IaC tool runs without it (as it would, but without a warning at the end of every step's log)`,
    ]);
    expect(env).toEqual({ PATH: '/bin' });

    await writeFile(missing, 'plugin_cache_dir = "/tmp"\n');
    const kept: NodeJS.ProcessEnv = { TF_CLI_CONFIG_FILE: missing };
    expect(await settleToolEnvironment(kept)).toEqual([]);
    expect(kept).toEqual({ TF_CLI_CONFIG_FILE: missing });
    expect(await settleToolEnvironment({})).toEqual([]);
    await rm(where, { recursive: true, force: true });
  });
});

describe('the runner’s startup check that the IaC binary runs', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'runner-iac-'));
  });

  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function binary(script: string) {
    const file = path.join(dir, 'iac');
    await writeFile(file, `#!/bin/sh\n${script}\n`);
    await chmod(file, 0o755);
    return file;
  }

  it('gives the version the binary says', async () => {
    await expect(
      checkIacBinaryRuns(
        await binary('echo "OpenTofu v1.8.2"; echo "on linux_amd64"'),
      ),
    ).resolves.toBe('OpenTofu v1.8.2');
    await expect(
      checkIacBinaryRuns(path.join(__dirname, '__testUtils__', 'fake-iac')),
    ).resolves.toBe('Terraform v1.9.8');
  });

  it('refuses a binary that is there but does not run, with what it said', async () => {
    // A binary for another architecture: the runner connected and failed each step pressed
    // ("terraform init exited with 126"), and Retry went to it again.
    const file = await binary(
      'echo "terraform: cannot execute binary file: Exec format error" >&2; exit 126',
    );
    const refusal = checkIacBinaryRuns(file);
    await expect(refusal).rejects.toThrow(UsageError);
    await expect(refusal).rejects.toThrow(
      `--iac-binary ${file} does not run: \`iac version\` exited with 126: terraform: cannot execute binary file: Exec format error`,
    );
  });

  it('refuses a Terraform too old to write its plan as JSON', async () => {
    const file = await binary('echo "Terraform v0.11.14"');
    await expect(checkIacBinaryRuns(file)).rejects.toThrow(
      `--iac-binary ${file} is Terraform v0.11.14: the runner needs Terraform 0.12 or later (for \`show -json\`), or OpenTofu`,
    );
    await expect(
      checkIacBinaryRuns(await binary('echo "Terraform v0.12.31"')),
    ).resolves.toBe('Terraform v0.12.31');
  });

  it('refuses a binary that does not answer in time', async () => {
    await expect(
      checkIacBinaryRuns(await binary('sleep 5'), 200),
    ).rejects.toThrow(
      /does not run: `iac version` did not answer within 0.2s$/,
    );
  });
});
