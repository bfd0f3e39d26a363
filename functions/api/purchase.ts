/**
 * docs/API.md `POST /purchase`: rent or buy episodes with coins, once per Idempotency-Key. The body is validated
 * before the key is looked at: a malformed request never touches the key store. A running rental may be bought for
 * good, less what it cost; `auto: true` (one episode) is continuous reading's automatic unlock, made only within the
 * reader's cap for the series (else POSSESSION_PURCHASE_IMPOSSIBLE; docs/API.md "Automatic unlocks").
 *
 * `GET /purchase/preview?episodeId=<id>` (issue 4 §3, the rent-or-buy choice), data:
 *
 *     { episodeId, no, free, price: {rent, buy},
 *       ownership: null | {kind, expiresAt},                      // what the reader holds of it now
 *       offers: { RENT|POSSESSION: { single: Offer|null, remaining: Offer|null } },
 *       balance: {total, bonus, freeCoin, coin},
 *       freetime: null | {hours, unlockHours, available, nextTicketAt} }
 *     Offer = { kind, scope: "SINGLE"|"REMAINING", episodeIds, coins, credit, uses: [{type, amount}], affordable, shortBy }
 *
 * `remaining` is "unlock all remaining": this episode and every later one the reader cannot open yet that is
 * sold that way (≤ 100), null when it would be this episode alone. `credit`: the coins of running rentals deducted
 * from a purchase for good. `uses` lists the coins drawn per type in the
 * spend order (bonus, free, paid); when the balance is short `affordable` is false and `shortBy` is the missing
 * coins. Paying an offer is `POST /purchase {episodeIds, kind}` with exactly its `episodeIds`.
 *
 * `POST /purchase/web` (fields `episodeId`, `kind`, `key`): the viewer's plain "buy for good" form (issue 12 point 4),
 * 303 to `/viewer/{episodeId}?bought={kind}` or `/viewer/{episodeId}?error=CODE#buy-for-good`.
 *
 * `POST /purchase/freetime {episodeId}` + Idempotency-Key → `{episodeId, expiresAt, nextTicketAt}` (spec §4
 * wait-until-free: the series' ticket unlocks the episode for 72 hours; the next ticket arrives at nextTicketAt).
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { PurchaseForm, PurchaseRequest } from '../../src/features/purchase/purchase.schema.ts'
import { previewPurchase, purchaseEpisodes } from '../../src/features/purchase/purchase.server.ts'
import { FreetimeRequest } from '../../src/features/freetime/freetime.schema.ts'
import { useFreetime } from '../../src/features/freetime/freetime.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { idempotent } from '../middleware/idempotency.ts'
import { FormKey, field, formRoute, fromForm, toLogin, type RawForm } from './forms.ts'
import { checksSessionItself, currentSession, currentUserId, requireUser } from '../middleware/session.ts'
import { RowIdText } from '../../src/lib/ids.ts'

const PreviewQuery = z.object({
  episodeId: RowIdText,
})

/** The viewer page the form was posted from (its episode id as sent, when well formed), where it comes back. */
const viewerOf = (raw: RawForm) => {
  const id = field(raw, 'episodeId')
  return /^[1-9]\d{0,14}$/.test(id) ? `/viewer/${id}` : '/'
}

export const purchase = new Hono<AppEnv>()
  .post(
    '/web',
    ...formRoute({
      schema: fromForm(PurchaseForm.extend({ key: FormKey })),
      guest: (raw, c) => toLogin(viewerOf(raw))(raw, c),
      once: { scope: 'POST /purchase/web' },
      run: (data, c) =>
        purchaseEpisodes(c.var.db, {
          userId: currentUserId(c),
          request: { episodeIds: [data.episodeId], kind: data.kind },
          claim: c.var.idempotency,
          rentalHours: c.var.edition.rentalHours,
          ageRules: c.var.edition,
          timeZone: c.var.edition.timeZone,
        }),
      done: (data) => `/viewer/${data.episodeId}?bought=${data.kind}`,
      failed: (code, raw) => `${viewerOf(raw)}?error=${code}#buy-for-good`,
    }),
  )
  // members only below (the form above sends a guest to log in instead)
  .use(requireUser)
  .post(
    '/',
    checksSessionItself,
    validate('json', PurchaseRequest),
    idempotent('POST /purchase', { handlerChecksKey: true }),
    async (c) => {
      const session = currentSession(c)
      const result = await purchaseEpisodes(c.var.db, {
        userId: session.userId,
        session,
        request: c.req.valid('json'),
        claim: c.var.idempotency,
        rentalHours: c.var.edition.rentalHours,
        ageRules: c.var.edition,
        timeZone: c.var.edition.timeZone,
      })
      return ok(c, result)
    },
  )
  .get('/preview', validate('query', PreviewQuery), async (c) => {
    const result = await previewPurchase(c.var.db, currentUserId(c), c.req.valid('query').episodeId, c.var.edition)
    return ok(c, result)
  })
  .post('/freetime', validate('json', FreetimeRequest), idempotent('POST /purchase/freetime', { handlerChecksKey: true }), async (c) => {
    const result = await useFreetime(c.var.db, {
      userId: currentUserId(c),
      episodeId: c.req.valid('json').episodeId,
      claim: c.var.idempotency,
      ageRules: c.var.edition,
    })
    return ok(c, result)
  })
