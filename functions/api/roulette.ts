/**
 * Spec §2 /roulette (routes under `/api/v1/roulette`, signed-in readers):
 *
 * - `GET /` (`?eventId=` optional: the running roulette by default) →
 *   `{event:{id, title, description, startsAt, endsAt, restriction}, prizes:[{type, amount}], tickets, freeSpins, coin}`;
 *   NOT_FOUND_EVENT when no roulette runs.
 * - `POST /spin` `{eventId}` + Idempotency-Key → `{eventId, entryId, prizeIndex, prize:{type, amount}, tickets, freeSpins, coin}`
 *   (coin: the `GET /coin` shape after the prize). Errors: NOT_FOUND_EVENT, NOT_EVENT_PERIOD, UNAUTHORIZED_USER,
 *   UNAUTHORIZED_ADULT, UNAUTHORIZED_NON_ADULT, NOT_EVENT_REMAIN_TICKET, NOT_LOGIN_USER, INVALID_PARAMETER.
 * - `POST /web/spin` — the /roulette page's plain form (works without JavaScript; same Origin only): form fields
 *   `eventId` and `key` (the Idempotency-Key the page rendered, so a resubmitted form replays instead of spinning
 *   again) → 303 to `/roulette?prize=TYPE:AMOUNT` or `/roulette?error=CODE`.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { SpinRequest } from '../../src/features/roulette/roulette.ts'
import { currentRouletteId, rouletteState, spinRoulette } from '../../src/features/roulette/roulette.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { idempotent } from '../middleware/idempotency.ts'
import { currentUserId, requireUser } from '../middleware/session.ts'
import { loginRedirect } from '../../src/features/session/routes.ts'
import { isIdempotencyKey, requestHash, type IdempotencyClaim } from '../../src/features/wallet/idempotency.ts'
import { IdempotencyKeyTaken, lookupIdempotency } from '../../src/features/wallet/idempotency.server.ts'
import type { Db } from '../../src/lib/server/db.ts'
import type { SpinResult } from '../../src/features/roulette/roulette.server.ts'

const WEB_SCOPE = 'POST /roulette/web/spin'

/** The form's spin, once per rendered key: a stored answer is replayed, a key reused for another event refused. */
async function webSpin(db: Db, claim: IdempotencyClaim, spin: () => Promise<SpinResult>): Promise<SpinResult> {
  const stored = async () => {
    const outcome = await lookupIdempotency(db, claim)
    if (outcome.kind === 'exists') return (JSON.parse(outcome.response.body) as { data: SpinResult }).data
    if (outcome.kind === 'exists_with_different_body') throw new AppError('IDEMPOTENCY_KEY_REUSED')
    return null
  }
  const first = await stored()
  if (first) return first
  try {
    return await spin()
  } catch (e) {
    if (!(e instanceof IdempotencyKeyTaken)) throw e
    const winner = await stored()
    if (!winner) throw e
    return winner
  }
}

const StateQuery = z.object({ eventId: z.string().regex(/^[1-9]\d{0,9}$/).transform(Number).optional() }).strict()

export const roulette = new Hono<AppEnv>()
  .get('/', requireUser, validate('query', StateQuery), async (c) => {
    const eventId = c.req.valid('query').eventId ?? (await currentRouletteId(c.var.db))
    if (eventId === null) throw new AppError('NOT_FOUND_EVENT')
    return ok(c, await rouletteState(c.var.db, { userId: currentUserId(c), eventId, timeZone: c.var.edition.timeZone }))
  })
  .post('/spin', requireUser, validate('json', SpinRequest), idempotent('POST /roulette/spin'), async (c) => {
    const result = await spinRoulette(c.var.db, { userId: currentUserId(c), eventId: c.req.valid('json').eventId, claim: c.var.idempotency, edition: c.var.edition })
    return ok(c, result)
  })
  .post('/web/spin', async (c) => {
    if (c.req.header('origin') !== new URL(c.req.url).origin) throw new AppError('FORBIDDEN_ORIGIN')
    c.header('Cache-Control', 'no-store')
    const state = c.get('session')
    if (!state || state.userId === null) return c.redirect(loginRedirect(new URL('/roulette', c.req.url)) ?? '/user/login', 303)
    const userId = state.userId
    const raw = ((await c.req.parseBody().catch(() => null)) ?? {}) as Record<string, unknown>
    try {
      const form = SpinRequest.safeParse({ eventId: typeof raw.eventId === 'string' && /^[1-9]\d{0,9}$/.test(raw.eventId) ? Number(raw.eventId) : null })
      const key = typeof raw.key === 'string' ? raw.key : undefined
      if (!form.success || !isIdempotencyKey(key)) throw new AppError('INVALID_PARAMETER')
      const eventId = form.data.eventId
      const claim: IdempotencyClaim = { userId, key, scope: WEB_SCOPE, requestHash: await requestHash(WEB_SCOPE, JSON.stringify({ eventId })) }
      const result = await webSpin(c.var.db, claim, () => spinRoulette(c.var.db, { userId, eventId, claim, edition: c.var.edition }))
      return c.redirect(`/roulette?prize=${result.prize.type}:${result.prize.amount}#roulette-status`, 303)
    } catch (e) {
      if (e instanceof AppError && e.status < 500) return c.redirect(`/roulette?error=${e.code}#roulette-status`, 303)
      throw e
    }
  })
