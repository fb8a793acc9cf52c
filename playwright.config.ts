import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { generateProjects } from '@backstage/e2e-test-utils/playwright';

/**
 * End-to-end tests in Debian's Chromium (Playwright's own browser download is not used).
 * The portal is started by Playwright unless PLAYWRIGHT_URL points at a running one.
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const startPortal = !process.env.PLAYWRIGHT_URL;
// One fresh data directory per run, known to the tests (workers inherit the environment):
// the embedded database and the local runner's key, apart from the developer's data/.
process.env.E2E_DATA_DIR ??= path.join(
  os.tmpdir(),
  `infra-delivery-e2e-${Date.now()}`,
);
const dataDir = process.env.E2E_DATA_DIR;

export default defineConfig({
  timeout: 90_000,
  expect: { timeout: 30_000 },

  webServer: startPortal
    ? [
        {
          command: 'yarn start',
          url: 'http://localhost:3000',
          reuseExistingServer: false,
          timeout: 240_000,
          stdout: 'ignore',
          stderr: 'pipe',
          env: {
            // A fresh embedded database (with fresh demo data) for every run.
            APP_CONFIG_backend_database_connection_directory: dataDir,
            APP_CONFIG_infraDelivery_runners_localRunner_tokenFile: path.join(
              dataDir,
              'local-runner.token',
            ),
            BROWSER: 'none',
          },
        },
      ]
    : [],

  forbidOnly: true,
  retries: 0,
  workers: 1,
  reporter: [
    ['list'],
    ['json', { outputFile: 'test-results/playwright.json' }],
  ],

  use: {
    actionTimeout: 0,
    baseURL: process.env.PLAYWRIGHT_URL ?? 'http://localhost:3000',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },

  outputDir: 'test-results/e2e',

  projects: generateProjects(),
});
