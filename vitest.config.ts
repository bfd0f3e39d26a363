import { defineConfig } from 'vitest/config'
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { editionPlugin } from './src/lib/edition/load.ts'
import { oauthTestBindings } from './tests/worker/oidc-global-setup.ts'
import { stripeTestBindings } from './tests/worker/stripe-global-setup.ts'
import { smsTestBindings } from './tests/worker/sms-global-setup.ts'
import { pushTestBindings } from './tests/worker/push-global-setup.ts'

/** The bindings every worker test run has: D1, R2, KV, the edition and the secrets a deployment sets. */
const miniflare = (bindings: Record<string, unknown>) => ({
  compatibilityDate: '2026-11-17',
  compatibilityFlags: ['nodejs_compat'],
  d1Databases: ['DB'],
  r2Buckets: ['MEDIA'],
  kvNamespaces: ['CACHE', 'SESSION'],
  // Cloudflare Images (wrangler.jsonc `images`), run locally by miniflare with sharp: the image loader's resizing
  images: { binding: 'IMAGES' },
  // each reader's object (wrangler.jsonc `durable_objects`), its class exported by tests/worker/main.ts
  durableObjects: {
    READER: { className: 'Reader', useSQLite: true },
    HASHER: { className: 'Hasher', useSQLite: true },
    TALLY: { className: 'Tally', useSQLite: true },
  },
  // the alarm queue's producer (wrangler.jsonc `queues`); the tests run its consumer on batches they build
  queueProducers: { ALARMS: { queueName: 'webtoon-alarms-test' }, READER_EVENTS: { queueName: 'webtoon-reader-events-test' } },
  // readers' objects' events are consumed as deployed (tests/worker/main.ts `queue`), without the deployed second of wait
  queueConsumers: { 'webtoon-reader-events-test': { maxBatchSize: 100, maxBatchTimeout: 0.05 } },
  // Cloudflare Email Service, simulated by miniflare: only the senders of the editions under test
  email: { send_email: [{ name: 'EMAIL', allowed_sender_addresses: ['no-reply@fr.bomtoon.example', 'no-reply@ar.bomtoon.example'] }] },
  // the limits of wrangler.jsonc (`ratelimits`), simulated by the local runtime
  ratelimits: {
    LIMIT_ADDRESS_ATTEMPT: { namespace_id: '2601', simple: { limit: 10, period: 60 as const } },
    LIMIT_ADDRESS_SEND: { namespace_id: '2602', simple: { limit: 5, period: 60 as const } },
    LIMIT_EDITION_ATTEMPT: { namespace_id: '2603', simple: { limit: 600, period: 60 as const } },
    LIMIT_EDITION_SEND: { namespace_id: '2604', simple: { limit: 100, period: 60 as const } },
  },
  bindings: { EDITION: 'fr', PASSWORD_PEPPER: 'test-pepper', SESSION_SECRET: 'test-session-secret-0123456789abcdef', ...bindings },
})

/**
 * Three projects: `unit` (pure rules, Node), `worker` (real workerd + D1 with the migrations applied, through
 * @cloudflare/vitest-plugin; a local run, as `npm start`: vite's `import.meta.env.DEV` is on) and `deployed` (the
 * same worker started as a deployment runs it: no local switch, `import.meta.env.DEV` off, real-looking secrets).
 * Browser tests run separately with Playwright (tests/e2e).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'tests/unit/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/unit/fast-check-setup.ts'],
          testTimeout: 20_000, // property tests with 1,000 runs on a shared 2-core machine
        },
      },
      {
        plugins: [
          editionPlugin('fr'),
          cloudflareTest(async ({ inject }) => ({
            main: './tests/worker/main.ts',
            miniflare: miniflare({
              OPS_TOKEN: 'test-ops-token',
              PAYMENT_WEBHOOK_SECRET: 'test-webhook-secret',
              APP_IOS_APP_CLIENT_ID: 'ios-app-test',
              APP_IOS_APP_CLIENT_SECRET: 'ios-app-test-secret-0123456789',
              TEST_MIGRATIONS: await readD1Migrations('migrations'),
              MONEY_MODEL_RUNS: process.env.MONEY_MODEL_RUNS ?? '', // runs of tests/worker/money.model.test.ts (bench: more)
              ...oauthTestBindings(inject('oidcIssuer'), inject('oidcSigningJwk')),
              ...stripeTestBindings(inject('stripeApiUrl')),
              ...smsTestBindings(inject('smsApiBase')),
              ...pushTestBindings(inject('pushServiceBase'), inject('vapidKeys')),
            }),
          })),
        ],
        test: {
          name: 'worker',
          include: ['tests/worker/**/*.test.ts'],
          setupFiles: ['tests/worker/apply-migrations.ts'],
          testTimeout: 30_000, // 1,000-request fuzz and 200-request concurrency tests under load
          globalSetup: [
            'tests/worker/oidc-global-setup.ts',
            'tests/worker/stripe-global-setup.ts',
            'tests/worker/sms-global-setup.ts',
            'tests/worker/push-global-setup.ts',
          ],
        },
      },
      {
        plugins: [
          editionPlugin('fr'),
          cloudflareTest(async () => ({
            main: './tests/worker/main.ts',
            miniflare: miniflare({
              PAYMENT_WEBHOOK_SECRET: 'whsec-deployed-0123456789abcdef0123456789',
              STRIPE_SECRET_KEY: 'sk_live_deployed0123456789abcdef',
              STRIPE_WEBHOOK_SECRET: 'whsec_deployed0123456789abcdef',
              CARRIER_SECRET: 'carrier-deployed-0123456789abcdef0123456789',
              TEST_MIGRATIONS: await readD1Migrations('migrations'),
            }),
          })),
        ],
        test: {
          name: 'deployed',
          include: ['tests/deployed/**/*.test.ts'],
          env: { DEV: '' }, // vitest's import.meta.env.DEV is !!process.env.DEV: off, as in a production build
          setupFiles: ['tests/worker/apply-migrations.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
})
