import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { RunnerCheckout } from '@infra-delivery/plugin-infra-delivery-common';

/** A full commit id: SHA-1, or SHA-256 for repositories that use it. */
const COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The claimed commit could not be fetched or checked out; the message says why. */
export class CheckoutFailed extends Error {}

/**
 * Checkouts of the commits git-triggered runs name, one directory per commit under `root`,
 * reused by every step of the same commit. Each is fetched alone (`git fetch --depth 1` of the
 * sha into a fresh repository) and moved into place only once checked out, so a directory
 * that exists is a complete checkout.
 *
 * The token travels as an HTTP header set through git's `GIT_CONFIG_*` environment, never in
 * the URL or the command line (both show in process lists and in git's own messages).
 */
export class CommitCheckouts {
  constructor(private readonly root: string) {}

  /** The directory holding the commit's files; fetches it unless it is there already. */
  async checkout(
    checkout: RunnerCheckout,
  ): Promise<{ dir: string; reused: boolean }> {
    if (!COMMIT_SHA.test(checkout.sha)) {
      throw new CheckoutFailed(`${checkout.sha} is not a commit id`);
    }
    const url = cloneUrl(checkout.repoUrl);
    const dir = path.join(this.root, checkout.sha);
    if (await exists(path.join(dir, '.git'))) {
      return { dir, reused: true };
    }
    await fs.mkdir(this.root, { recursive: true });
    const partial = await fs.mkdtemp(
      path.join(this.root, `${checkout.sha}.partial-`),
    );
    try {
      const git = (args: string[]) => runGit(args, partial, checkout.token);
      await git(['init', '--quiet']);
      await git([
        'fetch',
        '--quiet',
        '--no-tags',
        '--depth=1',
        url,
        checkout.sha,
      ]);
      await git(['checkout', '--quiet', '--detach', 'FETCH_HEAD']);
      await fs.rename(partial, dir).catch(async error => {
        // Another step of the same commit finished first: use its checkout.
        if (!(await exists(path.join(dir, '.git')))) throw error;
      });
      return { dir, reused: false };
    } finally {
      await fs.rm(partial, { recursive: true, force: true });
    }
  }
}

/**
 * The service hands out `https` clone URLs; `file` serves local mirrors and tests. Anything
 * else (git's `ext::` runs commands, `ssh` and `http` would skip the token or send it in
 * clear) is refused.
 */
function cloneUrl(repoUrl: string): string {
  let url: URL;
  try {
    url = new URL(repoUrl);
  } catch {
    throw new CheckoutFailed(`${repoUrl} is not a clone URL`);
  }
  if (
    (url.protocol !== 'https:' && url.protocol !== 'file:') ||
    url.username ||
    url.password
  ) {
    throw new CheckoutFailed(
      `${url.protocol}//${url.host}${url.pathname} is not an https clone URL without credentials`,
    );
  }
  return url.toString();
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

/** Runs git in `cwd`; a failure throws with git's last words (never the token). */
function runGit(
  args: string[],
  cwd: string,
  token: string | undefined,
): Promise<void> {
  const basic =
    token && Buffer.from(`x-access-token:${token}`).toString('base64');
  const header = basic
    ? {
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'http.extraHeader',
        GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
      }
    : { GIT_CONFIG_COUNT: '0' };
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      env: {
        ...process.env,
        ...header,
        GIT_TERMINAL_PROMPT: '0',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', error =>
      reject(
        new CheckoutFailed(
          `git could not be started (${error.message}); install git on the runner's host`,
        ),
      ),
    );
    child.on('close', code => {
      if (code === 0) {
        resolve();
        return;
      }
      let said =
        stderr
          .split('\n')
          .map(line => line.trim())
          .filter(Boolean)
          .pop() ?? `exit code ${code}`;
      for (const secret of [token, basic]) {
        if (secret) said = said.split(secret).join('***');
      }
      reject(new CheckoutFailed(`git ${args[0]} failed: ${said}`));
    });
  });
}
