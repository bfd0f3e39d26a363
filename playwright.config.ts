import { defineConfig } from '@playwright/test'
import { CHROMIUM_FLAGS, findChromium } from './scripts/chromium.ts'
import { e2ePushPort } from './scripts/push-service.ts'

/**
 * Browser tests against the built workers in real workerd (wrangler dev), one server per edition
 * under test, each with its own D1/R2 state; Chromium from scripts/chromium.ts (CHROME_PATH, the machine's, or
 * the one npm installed), never downloaded by Playwright.
 */
const chromium = await findChromium()
if (chromium.path === null) throw new Error(`No Chromium for the browser tests: ${chromium.reason}`)
/** Every edition has its server: ports 8791–8797 by default (8798: the OAuth test's own worker); E2E_PORT_BASE moves them. */
const base = Number(process.env.E2E_PORT_BASE ?? 8791)
const all = { fr: base, ar: base + 1, de: base + 2, jp: base + 3, kr: base + 4, th: base + 5, tw: base + 6 } as const
/** `E2E_EDITIONS=fr,ar`: only these editions' servers and specs (a developer's partial run; `npm test` runs all seven). */
const only = process.env.E2E_EDITIONS?.split(',')
const editions = Object.fromEntries(Object.entries(all).filter(([id]) => !only || only.includes(id)))

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: '.cache/playwright.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: chromium.path,
      args: CHROMIUM_FLAGS,
    },
    trace: 'off',
  },
  projects: Object.entries(editions).map(([id, port]) => ({
    name: id,
    testMatch: new RegExp(`\\.${id}\\.spec\\.ts$`),
    use: { baseURL: `http://127.0.0.1:${port}` },
  })),
  webServer: Object.entries(editions).map(([id, port]) => ({
    // pushes go to the local push service the push test starts (scripts/push-service.ts), never to a real host
    command: `node scripts/start.ts --no-build --shared-address --port ${port} --persist-to .wrangler/e2e-${id}-${port}${id === 'fr' ? '' : ' --no-images'} --var PUSH_SERVICE_BASE:http://127.0.0.1:${e2ePushPort(port)}`,
    url: `http://127.0.0.1:${port}/_/health`,
    env: { EDITION: id },
    timeout: 240_000,
    reuseExistingServer: !process.env.CI,
    stdout: 'ignore',
    stderr: 'pipe',
  })),
})
