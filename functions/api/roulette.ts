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
import { FormKey, formRoute, fromForm, toLogin } from './forms.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { idempotent } from '../middleware/idempotency.ts'
import { currentUserId, requireUser } from '../middleware/session.ts'
import { RowIdText } from '../../src/lib/ids.ts'

const StateQuery = z
  .object({
    eventId: RowIdText.optional(),
  })
  .strict()

export const roulette = new Hono<AppEnv>()
  .post(
    '/web/spin',
    ...formRoute({
      schema: fromForm(SpinRequest.extend({ key: FormKey })),
      guest: toLogin('/roulette'),
      once: { scope: 'POST /roulette/web/spin' },
      run: (data, c) =>
        spinRoulette(c.var.db, { userId: currentUserId(c), eventId: data.eventId, claim: c.var.idempotency, edition: c.var.edition }),
      done: (_data, result) => `/roulette?prize=${result.prize.type}:${result.prize.amount}#roulette-status`,
      failed: (code) => `/roulette?error=${code}#roulette-status`,
    }),
  )
  // members only below (the form above sends a guest to log in instead)
  .use(requireUser)
  .get('/', validate('query', StateQuery), async (c) => {
    const eventId = c.req.valid('query').eventId ?? (await currentRouletteId(c.var.db))
    if (eventId === null) throw new AppError('NOT_FOUND_EVENT')
    return ok(c, await rouletteState(c.var.db, { userId: currentUserId(c), eventId, timeZone: c.var.edition.timeZone }))
  })
  .post('/spin', validate('json', SpinRequest), idempotent('POST /roulette/spin'), async (c) => {
    const result = await spinRoulette(c.var.db, {
      userId: currentUserId(c),
      eventId: c.req.valid('json').eventId,
      claim: c.var.idempotency,
      edition: c.var.edition,
    })
    return ok(c, result)
  })
