import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { BENCH_ROOT, BenchDatabase, prepareForBulkLoad } from '../databases';
import { DatasetManifest, generateDataset } from './generate';
import { datasetSizes } from './sizes';

/** The dataset of this database and scale: generated, or the one generated before. */
export async function prepareDataset(
  database: BenchDatabase,
  scale: number,
  regenerate: boolean,
  log: (line: string) => void,
): Promise<{ manifest: DatasetManifest; generated: boolean }> {
  const manifestFile = `${BENCH_ROOT}/${database.tag}.json`;
  if (!regenerate && existsSync(manifestFile)) {
    return {
      manifest: JSON.parse(readFileSync(manifestFile, 'utf8')),
      generated: false,
    };
  }
  await database.recreate();
  const knex = database.open();
  try {
    await prepareForBulkLoad(knex);
    const manifest = await generateDataset(knex, datasetSizes(scale), line =>
      log(`[${database.tag}] ${line}`),
    );
    writeFileSync(manifestFile, JSON.stringify(manifest));
    log(`[${database.tag}] generated in ${manifest.seconds.toFixed(1)} s`);
    return { manifest, generated: true };
  } finally {
    await knex.destroy();
  }
}
