import { execFileSync } from 'node:child_process';
import { resolvePackagePath } from '@backstage/backend-plugin-api';

/** The workspace packages the bench backend runs, built as a release builds them. */
const BUILT_PACKAGES = [
  '@infra-delivery/plugin-infra-delivery-common',
  '@infra-delivery/plugin-infra-delivery-node',
  '@infra-delivery/plugin-infra-delivery-backend',
  '@infra-delivery/plugin-catalog-backend-module-infra-delivery',
  '@internal/infra-delivery-bench',
];

/**
 * Builds the bench backend the way a release is built: the type declarations (`yarn tsc`),
 * then `backstage-cli package build` of every workspace package it runs. bin/bench-backend
 * then loads their `dist` entry points (each package's `publishConfig.main`), as an
 * installed production bundle would, with no transpiler in the process.
 */
export function buildBenchBackend(log: (line: string) => void): void {
  const started = Date.now();
  const root = resolvePackagePath('@internal/infra-delivery-bench', '../..');
  const run = (args: string[], cwd: string) =>
    execFileSync('yarn', args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  run(['tsc'], root);
  for (const name of BUILT_PACKAGES) {
    run(['backstage-cli', 'package', 'build'], resolvePackagePath(name));
  }
  log(
    `production build of ${BUILT_PACKAGES.length} packages in ${(
      (Date.now() - started) /
      1000
    ).toFixed(1)} s`,
  );
}
