/**
 * Per-address and per-edition limits on the account flows an attacker scripts (issue 26 point 3): sign-in
 * (password spraying over many accounts), sign-up and code sending (mail and SMS pumping cost money), code
 * checking. They use the Workers Rate Limiting bindings of wrangler.jsonc (`ratelimits`, one-minute windows; the
 * local runtime simulates them): an `attempt` (sign-in, code check) or a `send` (sign-up, a mail, an SMS) counts
 * once per client address and once per edition. The per-account rules (5 wrong passwords, 5 guesses per code,
 * 5 SMS per phone per day) stay in D1 beside them. The client log line (spec §7 Logger) counts as an attempt.
 */
import { env } from 'cloudflare:workers'
import { AppError, type ErrorCode } from '../../lib/errors/catalogue.ts'
import { isLocalRun } from '../../lib/server/local-run.ts'

/** What is limited, whether it is an attempt or a send, and the spec §8 code its refusal answers. */
const ACTIONS = {
  'sign-in': { kind: 'attempt', code: 'DUPLICATE_LOGIN' },
  'code-check': { kind: 'attempt', code: 'FREQUENT_REQUEST' },
  'sign-up': { kind: 'send', code: 'FREQUENT_REQUEST' },
  'mail-send': { kind: 'send', code: 'FREQUENT_REQUEST' },
  'sms-send': { kind: 'send', code: 'ALREADY_SEND_SMS' },
  // spec §7 Logger POST (functions/api/logger.ts): a client cannot flood the Worker's log
  log: { kind: 'attempt', code: 'TOO_MANY_REQUESTS' },
} as const satisfies Record<string, { kind: 'attempt' | 'send'; code: ErrorCode }>
export type LimitedAction = keyof typeof ACTIONS

/**
 * Counts one `action` of the client at `ip` on the edition of `site` (its siteUrl); over either limit the action's
 * code. Without an address (only direct calls in tests: on a deployment and locally the runtime always sets one)
 * only the edition counts. The browser suite drives every reader from 127.0.0.1: its local servers set
 * `LOCAL_SHARED_ADDRESS=1` (scripts/start.ts --shared-address) and only the edition counts there; a deployed
 * worker ignores the variable (the worker tests prove the per-address limits).
 */
export async function checkLimits(action: LimitedAction, ctx: { ip?: string | null; issuer: string }): Promise<void> {
  const { kind, code } = ACTIONS[action]
  const sharedAddress = isLocalRun() && (env as unknown as Record<string, unknown>).LOCAL_SHARED_ADDRESS === '1'
  const perAddress = sharedAddress ? undefined : kind === 'attempt' ? env.LIMIT_ADDRESS_ATTEMPT : env.LIMIT_ADDRESS_SEND
  const perEdition = kind === 'attempt' ? env.LIMIT_EDITION_ATTEMPT : env.LIMIT_EDITION_SEND
  const [address, edition] = await Promise.all([
    ctx.ip && perAddress ? perAddress.limit({ key: `${action}|${ctx.ip}` }) : { success: true },
    perEdition ? perEdition.limit({ key: `${action}|${ctx.issuer}` }) : { success: true },
  ])
  if (!address.success || !edition.success) throw new AppError(code)
}
