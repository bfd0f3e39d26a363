import { defineConfig } from 'vitest/config'
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { editionPlugin } from './src/lib/edition/load.ts'
import { oauthTestBindings } from './tests/worker/oidc-global-setup.ts'

/**
 * Two projects: `unit` (pure rules, Node) and `worker` (real workerd + D1 with the migrations applied,
 * through @cloudflare/vitest-plugin). Browser tests run separately with Playwright (tests/e2e).
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
            miniflare: {
              compatibilityDate: '2026-11-17',
              compatibilityFlags: ['nodejs_compat'],
              d1Databases: ['DB'],
              r2Buckets: ['MEDIA'],
              kvNamespaces: ['CACHE', 'SESSION'],
              // the limits of wrangler.jsonc (`ratelimits`), simulated by the local runtime
              ratelimits: {
                LIMIT_ADDRESS_ATTEMPT: { namespace_id: '2601', simple: { limit: 10, period: 60 } },
                LIMIT_ADDRESS_SEND: { namespace_id: '2602', simple: { limit: 5, period: 60 } },
                LIMIT_EDITION_ATTEMPT: { namespace_id: '2603', simple: { limit: 600, period: 60 } },
                LIMIT_EDITION_SEND: { namespace_id: '2604', simple: { limit: 100, period: 60 } },
              },
              bindings: {
                EDITION: 'fr',
                PASSWORD_PEPPER: 'test-pepper',
                SESSION_SECRET: 'test-session-secret-0123456789abcdef',
                OPS_TOKEN: 'test-ops-token',
                PAYMENT_WEBHOOK_SECRET: 'test-webhook-secret',
                TEST_MIGRATIONS: await readD1Migrations('migrations'),
                ...oauthTestBindings(inject('oidcIssuer'), inject('oidcSigningJwk')),
              },
            },
          })),
        ],
        test: {
          name: 'worker',
          include: ['tests/worker/**/*.test.ts'],
          setupFiles: ['tests/worker/apply-migrations.ts'],
          testTimeout: 30_000, // 1,000-request fuzz and 200-request concurrency tests under load
          globalSetup: ['tests/worker/oidc-global-setup.ts'],
        },
      },
    ],
  },
})
