import { mkdirSync } from 'node:fs';
import { BENCH_ROOT, benchDatabase } from './databases';
import { prepareDataset } from './dataset/prepareDataset';
import { parseOptions } from './options';
import { buildBenchBackend } from './productionBuild';
import { runBenchmark } from './runBenchmark';

/** `yarn bench`: datasets, load against the real backend and its floors, the report. */
export async function main(argv: string[]): Promise<number> {
  const options = parseOptions(argv);
  mkdirSync(BENCH_ROOT, { recursive: true });
  const log = (line: string) =>
    process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
  if (!options.generateOnly && !options.fromSources && !options.reuseBuild) {
    buildBenchBackend(log);
  }
  for (const kind of options.databases) {
    const database = benchDatabase(kind, options.scale);
    const { manifest, generated } = await prepareDataset(
      database,
      options.scale,
      options.regenerate,
      log,
    );
    if (options.generateOnly) continue;
    await runBenchmark({ options, database, manifest, generated, log });
  }
  return 0;
}
