import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { generateProjects } from '@backstage/e2e-test-utils/playwright';

/**
 * End-to-end tests in Debian's Chromium (Playwright's own browser download is not used).
 * The portal is started by Playwright (scripts/e2e-portal: the app's production build served by
 * the backend on http://localhost:7007) unless PLAYWRIGHT_URL points at a running one, such as
 * the development portal of `scripts/start` on http://localhost:3000.
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
const E2E_PORTAL = 'http://localhost:7007';

export default defineConfig({
  timeout: 90_000,
  expect: { timeout: 30_000 },

  webServer: startPortal
    ? [
        {
          command: 'scripts/e2e-portal',
          url: `${E2E_PORTAL}/api/infra-delivery/health`,
          reuseExistingServer: false,
          // The app's production build (about 1.5 min on 2 cores), then the backend's start.
          timeout: 420_000,
          stdout: 'ignore',
          stderr: 'pipe',
          env: {
            // The backend serves the app: one origin for the pages and the API.
            APP_CONFIG_app_baseUrl: E2E_PORTAL,
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
    baseURL: process.env.PLAYWRIGHT_URL ?? E2E_PORTAL,
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
