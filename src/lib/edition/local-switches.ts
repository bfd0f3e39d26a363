/**
 * What a deployment of an edition would turn on that belongs to local runs only: the payment sandbox, the
 * carrier sandbox, the outbox page. `npm run deploy` refuses an edition for which this list is not empty (unless
 * --allow-local-switches) and prints it. Pure: the edition and the variables the deployment would set (values of
 * `vars`, or secret names with any value) are arguments.
 */
import type { Edition } from './schema.ts'

/**
 * The local-run rule: on under `astro dev`, or where the worker runs with DEV_OUTBOX=1 (set by scripts/start.ts for
 * local runs and the browser tests); it opens the sandboxes and the dev outbox page (issue 3 §6). The worker asks it
 * through `isLocalRun` (src/lib/server/local-run.ts).
 */
export function localRunOn(dev: boolean, devOutboxVar: unknown): boolean {
  return dev || devOutboxVar === '1'
}

export type LocalSwitch = { setting: string; turnsOn: string }

export function localSwitches(edition: Pick<Edition, 'id' | 'payment'>, vars: Record<string, string | undefined>): LocalSwitch[] {
  const found: LocalSwitch[] = []
  if (localRunOn(false, vars.DEV_OUTBOX)) {
    found.push({
      setting: 'DEV_OUTBOX=1',
      turnsOn: 'the payment sandbox (coins without payment), the carrier sandbox (/nice/sandbox) and /dev/outbox',
    })
  }
  if (edition.payment.provider === 'sandbox') {
    found.push({
      setting: `editions/${edition.id}/edition.json payment.provider "sandbox"`,
      turnsOn: 'no real payment provider: the shop sells nothing',
    })
  }
  if (edition.payment.provider === 'stripe') {
    const key = vars.STRIPE_SECRET_KEY
    if (key !== undefined && /^(sk|rk)_test_/.test(key))
      found.push({ setting: 'STRIPE_SECRET_KEY is a test-mode key', turnsOn: "Stripe's test mode (no real money is taken)" })
    if (vars.STRIPE_API_URL !== undefined)
      found.push({ setting: 'STRIPE_API_URL', turnsOn: 'a Stripe API other than Stripe (test double)' })
  }
  return found
}
