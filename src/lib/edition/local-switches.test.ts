import { describe, expect, it } from 'vitest'
import { localRunOn, localSwitches } from './local-switches.ts'

describe('localSwitches (what `npm run deploy` refuses)', () => {
  it('names every local-only switch a configuration would turn on', () => {
    expect(localSwitches({ id: 'fr', payment: { provider: 'sandbox' } }, { DEV_OUTBOX: '1' }).map((s) => s.setting)).toEqual([
      'DEV_OUTBOX=1',
      'editions/fr/edition.json payment.provider "sandbox"',
    ])
    expect(
      localSwitches(
        { id: 'jp', payment: { provider: 'stripe' } },
        { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_URL: 'http://127.0.0.1:1' },
      ).map((s) => s.setting),
    ).toEqual(['STRIPE_SECRET_KEY is a test-mode key', 'STRIPE_API_URL'])
  })
  it('is empty for a Stripe edition with live keys (or keys set as secrets, unseen) and no DEV_OUTBOX', () => {
    expect(
      localSwitches(
        { id: 'kr', payment: { provider: 'stripe' } },
        { STRIPE_SECRET_KEY: 'sk_live_x', DEV_OUTBOX: '0', PAYMENT_WEBHOOK_SECRET: 'set' },
      ),
    ).toEqual([])
    expect(localSwitches({ id: 'kr', payment: { provider: 'stripe' } }, {})).toEqual([])
  })
})

describe('the local-run rule', () => {
  it('is on in astro dev or with DEV_OUTBOX=1 only', () => {
    expect(localRunOn(true, undefined)).toBe(true)
    expect(localRunOn(false, '1')).toBe(true)
    for (const v of [undefined, '', '0', 'true', 1, 'yes']) expect(localRunOn(false, v), String(v)).toBe(false)
  })
})
