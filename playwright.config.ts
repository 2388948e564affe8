import { defineConfig, devices } from '@playwright/test'
import { BASE_URL, E2E_PORT } from './e2e/support/env.ts'

/**
 * Journeys run against the production build served by the real server on a fresh DATA_DIR, in
 * Debian's Chromium (never a downloaded browser).
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['json', { outputFile: '.tmp/playwright-results.json' }]],
  outputDir: 'test-results',
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } },
    },
  ],
  webServer: {
    command: 'node e2e/support/serve.ts',
    url: `${BASE_URL}/api/v1/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    // SIGTERM, not a SIGKILL of the group: the server then stops its embedded PostgreSQL, which
    // runs in a process group of its own and would outlive a killed server
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: { E2E_PORT: String(E2E_PORT) },
  },
})
