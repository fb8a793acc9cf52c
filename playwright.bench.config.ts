import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import baseConfig from './playwright.config';

/**
 * The frontend benchmark (`yarn bench:frontend`), apart from the CI suite: the production
 * build of the app (packages/app/dist, built by the benchmark script) served statically on
 * :3000 and the backend on :7007 with a fresh embedded database. Not a test: it prints figures.
 */
export default defineConfig({
  ...baseConfig,
  timeout: 600_000,
  reporter: [['list']],
  outputDir: 'test-results/bench',
  webServer: process.env.PLAYWRIGHT_URL
    ? []
    : [
        {
          command: 'yarn workspace backend start',
          url: 'http://localhost:7007/api/infra-delivery/health',
          reuseExistingServer: false,
          timeout: 240_000,
          stdout: 'ignore',
          stderr: 'pipe',
          env: {
            APP_CONFIG_backend_database_connection_directory: path.join(
              os.tmpdir(),
              `infra-delivery-bench-${Date.now()}`,
            ),
          },
        },
        {
          command:
            'node scripts/bench-frontend/serveAppDist.js packages/app/dist 3000',
          url: 'http://localhost:3000',
          reuseExistingServer: false,
          timeout: 30_000,
        },
      ],
  projects: [
    {
      name: 'bench',
      testDir: 'packages/app/e2e-benchmarks',
      testMatch: '*.bench.ts',
    },
  ],
});
