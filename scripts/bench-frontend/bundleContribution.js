#!/usr/bin/env node
/*
 * The infra-delivery plugin's share of the production app bundle, from the bundle stats that
 * `backstage-cli package build --stats` writes (packages/app/dist/bundle-stats.json).
 *
 * - Eager: bytes of the plugin's own modules (plugins/infra-delivery and its -common package)
 *   inside the chunks every page loads. A chunk's gzipped size is shared out by the raw bytes
 *   of its modules.
 * - On demand: chunks that only the plugin's lazy imports request (its tabs and pages, with the
 *   libraries nothing else loads, such as the chart library). They are downloaded when a
 *   person opens one of the plugin's tabs.
 *
 * Sizes are gzip level 9 of the emitted files, as Backstage's build summary prints them.
 */
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const distDir = path.resolve(process.argv[2] ?? 'packages/app/dist');
const stats = JSON.parse(
  fs.readFileSync(path.join(distDir, 'bundle-stats.json'), 'utf8'),
);

const isPluginModule = name =>
  /(^|\/)plugins\/infra-delivery(-common)?\//.test(name ?? '');
const gzipSizeOf = file =>
  zlib.gzipSync(fs.readFileSync(path.join(distDir, file)), { level: 9 }).length;
const jsFiles = chunk => chunk.files.filter(f => f.endsWith('.js'));
const moduleBytes = modules => modules.reduce((sum, m) => sum + m.size, 0);

const eager = { raw: 0, gzip: 0, chunks: 0 };
const onDemand = { raw: 0, gzip: 0, chunks: 0, ownRaw: 0 };
let appGzip = 0;
const counted = new Set();

for (const chunk of stats.chunks) {
  const files = jsFiles(chunk).filter(f => !counted.has(f));
  files.forEach(f => counted.add(f));
  const gzip = files.reduce((sum, f) => sum + gzipSizeOf(f), 0);
  appGzip += gzip;
  const modules = chunk.modules ?? [];
  const total = moduleBytes(modules);
  const own = moduleBytes(modules.filter(m => isPluginModule(m.name)));
  const origins = chunk.origins ?? [];
  const requestedOnlyByPlugin =
    !chunk.initial &&
    origins.length > 0 &&
    origins.every(o => isPluginModule(o.moduleName));

  if (requestedOnlyByPlugin) {
    onDemand.raw += total;
    onDemand.ownRaw += own;
    onDemand.gzip += gzip;
    onDemand.chunks += 1;
  } else if (chunk.initial && own > 0 && total > 0) {
    eager.raw += own;
    eager.gzip += Math.round((gzip * own) / total);
    eager.chunks += 1;
  }
}

const kB = bytes => `${(bytes / 1024).toFixed(1)} kB`;
const result = {
  eagerGzipBytes: eager.gzip,
  eagerRawBytes: eager.raw,
  onDemandGzipBytes: onDemand.gzip,
  onDemandRawBytes: onDemand.raw,
  onDemandPluginOwnRawBytes: onDemand.ownRaw,
  onDemandChunks: onDemand.chunks,
  appGzipBytes: appGzip,
};
console.log('Bundle contribution of plugins/infra-delivery (gzip -9):');
console.log(
  `  eager, in the chunks every page loads: ${kB(eager.gzip)} (raw ${kB(
    eager.raw,
  )} in ${eager.chunks} chunk(s))`,
);
console.log(
  `  on demand, when a tab or page of the plugin opens: ${kB(
    onDemand.gzip,
  )} in ${onDemand.chunks} chunks (raw ${kB(
    onDemand.raw,
  )}, of which the plugin's own code ${kB(onDemand.ownRaw)})`,
);
console.log(
  `  total: ${kB(eager.gzip + onDemand.gzip)} of the app's ${kB(appGzip)}`,
);
if (process.env.BENCH_JSON) {
  fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify(result, null, 2));
}
