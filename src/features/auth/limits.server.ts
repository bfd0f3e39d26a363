/**
 * Per-address and per-edition limits on the account flows an attacker scripts (issue 26 point 3, issue 34 point 2):
 * sign-in (password spraying over many accounts), sign-up and code sending (mail and SMS pumping cost money), code
 * checking. They use the Workers Rate Limiting bindings of wrangler.jsonc (`ratelimits`, one-minute windows; the
 * local runtime simulates them): an `attempt` (sign-in, code check) or a `send` (sign-up, a mail, an SMS) counts
 * first against the client's address, which decides; only what the address let through counts against the
 * edition. The edition's allowance is a safeguard against a distributed attack that never shuts readers out: over
 * it, a request is slowed (`EDITION_BUSY_DELAY_MS`), not refused — but for SMS, each of which is paid for, where
 * it is a hard budget. The per-account rules (5 wrong passwords, 5 guesses per code, 5 SMS per phone per day) stay
 * in D1 beside them. The client log line (spec §7 Logger) and a typed coupon code count as attempts.
 */
import { env } from 'cloudflare:workers'
import { AppError, type ErrorCode } from '../../lib/errors/catalogue.ts'
import { isLocalRun } from '../../lib/server/local-run.ts'

/** What is limited, whether it is an attempt or a send, the spec §8 code its refusal answers, and what the edition's limit does. */
const ACTIONS = {
  'sign-in': { kind: 'attempt', code: 'DUPLICATE_LOGIN', edition: 'slow' },
  'code-check': { kind: 'attempt', code: 'FREQUENT_REQUEST', edition: 'slow' },
  'sign-up': { kind: 'send', code: 'FREQUENT_REQUEST', edition: 'slow' },
  'mail-send': { kind: 'send', code: 'FREQUENT_REQUEST', edition: 'slow' },
  'sms-send': { kind: 'send', code: 'ALREADY_SEND_SMS', edition: 'refuse' },
  // spec §7 Logger POST (functions/api/logger.ts): a client cannot flood the Worker's log
  log: { kind: 'attempt', code: 'TOO_MANY_REQUESTS', edition: 'slow' },
  // a coupon code typed (issue 34 point 6): codes cannot be guessed at speed
  'coupon-code': { kind: 'attempt', code: 'FREQUENT_REQUEST', edition: 'slow' },
} as const satisfies Record<string, { kind: 'attempt' | 'send'; code: ErrorCode; edition: 'slow' | 'refuse' }>
export type LimitedAction = keyof typeof ACTIONS

/** How long a request waits while its edition is over its allowance (wall time, no CPU: the isolate serves others meanwhile). */
const EDITION_BUSY_DELAY_MS = 1_000

/**
 * Counts one `action` of the client at `ip`: over the address's allowance the action's code, and the edition does
 * not count it; else it counts on the edition of `site` (its siteUrl), over whose allowance it waits (or, for
 * SMS, is refused). Without an address (only direct calls in tests: on a deployment and locally the runtime
 * always sets one) only the edition counts. The browser suite drives every reader from 127.0.0.1: its local
 * servers set `LOCAL_SHARED_ADDRESS=1` (scripts/start.ts --shared-address) and only the edition counts there; a
 * deployed worker ignores the variable (the worker tests prove the per-address limits). Answers whether it waited.
 */
export async function checkLimits(action: LimitedAction, ctx: { ip?: string | null; issuer: string }): Promise<'passed' | 'slowed'> {
  const { kind, code, edition } = ACTIONS[action]
  const sharedAddress = isLocalRun() && (env as unknown as Record<string, unknown>).LOCAL_SHARED_ADDRESS === '1'
  const perAddress = sharedAddress ? undefined : kind === 'attempt' ? env.LIMIT_ADDRESS_ATTEMPT : env.LIMIT_ADDRESS_SEND
  const perEdition = kind === 'attempt' ? env.LIMIT_EDITION_ATTEMPT : env.LIMIT_EDITION_SEND
  if (ctx.ip && perAddress && !(await perAddress.limit({ key: `${action}|${ctx.ip}` })).success) throw new AppError(code)
  if (!perEdition || (await perEdition.limit({ key: `${action}|${ctx.issuer}` })).success) return 'passed'
  if (edition === 'refuse') throw new AppError(code)
  await new Promise((resolve) => setTimeout(resolve, EDITION_BUSY_DELAY_MS))
  return 'slowed'
}
