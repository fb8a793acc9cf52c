import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../../..');

/** The key the backend provisioned for the local runner (playwright.config.ts says where). */
export function localRunnerToken(): string {
  const file = path.join(process.env.E2E_DATA_DIR ?? '', 'local-runner.token');
  if (!fs.existsSync(file)) {
    throw new Error(
      `No local runner key at ${file}: the tests start their own portal (unset PLAYWRIGHT_URL)`,
    );
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/**
 * The reference runner (packages/runner), as an operator starts it, executing the test IaC
 * tool the runner's own tests use: `init` answers at once, `plan` takes `planSeconds`, and the
 * plan is a real Terraform plan of 13 resources.
 */
export function startReferenceRunner(options: {
  token: string;
  planSeconds: number;
}): { process: ChildProcess; output: () => string; stop: () => void } {
  let output = '';
  const child = spawn(
    process.execPath,
    [
      path.join(REPO_ROOT, 'packages/runner/bin/infra-delivery-runner'),
      '--url',
      'http://localhost:7007/api/infra-delivery',
      '--iac-binary',
      path.join(REPO_ROOT, 'packages/runner/src/__testUtils__/fake-iac'),
      '--source-root',
      path.join(REPO_ROOT, 'examples/iac'),
      '--work-root',
      fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-runner-')),
      '--runner-id',
      'e2e-runner',
      '--poll-interval',
      '500',
    ],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        INFRA_DELIVERY_RUNNER_TOKEN: options.token,
        FAKE_IAC_PLAN: path.join(
          REPO_ROOT,
          'plugins/infra-delivery-backend/src/iac/__fixtures__/tf-plans/terraform-compliance__test_issue_522.plan.json',
        ),
        FAKE_IAC_SLEEP_MS: String(options.planSeconds * 1000),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', chunk => (output += chunk));
  child.stderr!.on('data', chunk => (output += chunk));
  return {
    process: child,
    output: () => output,
    stop: () => {
      child.kill('SIGTERM');
    },
  };
}
