import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';
import { parseOptions, USAGE, UsageError } from './options';
import { explainFailure } from './refusalHints';
import { Runner } from './Runner';
import {
  checkIacBinaryRuns,
  checkSourceRoot,
  resolveIacBinary,
  settleToolEnvironment,
} from './startupChecks';

export { Runner } from './Runner';
export { parseOptions } from './options';
export type { RunnerOptions } from './options';

/** The `infra-delivery-runner` command. */
export async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (parsed === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // What would fail every step is said once, before the runner claims any.
  let options;
  let iacVersion;
  try {
    await checkSourceRoot(parsed.sourceRoot);
    const iacBinary = await resolveIacBinary(parsed.iacBinary);
    iacVersion = await checkIacBinaryRuns(iacBinary);
    options = { ...parsed, iacBinary };
  } catch (error) {
    process.stderr.write(
      `infra-delivery-runner: ${(error as Error).message}\n`,
    );
    process.exitCode = 2;
    return;
  }
  const { url, token } = options;
  const client = new InfraDeliveryClient({
    baseUrl: async () => url,
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...init?.headers, authorization: `Bearer ${token}` },
      }),
  });
  const log = (message: string) =>
    process.stdout.write(`${new Date().toISOString()} ${message}\n`);
  for (const warning of await settleToolEnvironment()) {
    log(warning);
  }
  log(`Running steps with ${iacVersion} (${options.iacBinary})`);
  const runner = new Runner(options, client, log);
  // Stopped again, the runner kills the step's command at once (it never dies leaving it).
  process.on('SIGINT', () => runner.stop());
  process.on('SIGTERM', () => runner.stop());
  try {
    await runner.run();
  } catch (error) {
    process.stderr.write(
      `infra-delivery-runner: ${explainFailure(error, url)}\n`,
    );
    process.exitCode = 1;
  }
}

export { UsageError };
