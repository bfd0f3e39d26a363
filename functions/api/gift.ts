/**
 * The gift box (spec §2 /gift, §3 gift tickets, §8 Gift codes), mounted at `/api/v1/gift`:
 *
 * - `GET /` → `{items:[{id, kind, title, seriesId, seriesTitle, episodeId, episodeNo, senderKind, givenAt, usedAt,
 *   usedEpisodeId, expiresAt, choices}]}` — the reader's gifts, unused first; `choices` lists the episodes a
 *   series ticket can open (null for an episode ticket or a used one).
 * - `POST /{id}/use` `{episodeId?}` + Idempotency-Key → `{giftId, purchase:{episodeId, kind: RENT_GIFT|POSSESSION_GIFT,
 *   expiresAt}}`; NOT_FOUND_GIFT, ALREADY_GIVEN_GIFT, NOT_FOUND_GIFT_INFO, UN_MATCHED_GIFT_TARGET_TYPE and the
 *   purchase codes (EXIST_LIBRARY, RENT_PURCHASE_IMPOSSIBLE, POSSESSION_PURCHASE_IMPOSSIBLE, ADULT_ONLY_CONTENTS).
 * - `POST /web/{id}/use` — the /gift page's plain form (same Origin only; fields `episodeId?`, `key`): 303 to
 *   `/gift?used={id}` or `/gift?error=CODE`.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { UseGiftRequest } from '../../src/features/gift/gift.ts'
import { listGifts, useGift } from '../../src/features/gift/gift.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { formRoute, fromForm, toLogin } from './forms.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { idempotent } from '../middleware/idempotency.ts'
import { currentUserId, requireUser } from '../middleware/session.ts'
import { RowIdText } from '../../src/lib/ids.ts'

const GiftParam = z.object({
  id: RowIdText,
})
/** The key the /gift page renders into each ticket's form. */
const GiftKey = z.string().regex(/^[A-Za-z0-9_-]{8,100}$/)

export const gift = new Hono<AppEnv>()
  .post(
    '/web/:id/use',
    ...formRoute({
      schema: fromForm(UseGiftRequest.extend({ key: GiftKey })),
      guest: toLogin('/gift'),
      once: { scope: 'POST /gift/web/use' },
      run: (data, c) => {
        const param = GiftParam.safeParse({ id: c.req.param('id') })
        if (!param.success) throw new AppError('NOT_FOUND_GIFT')
        return useGift(c.var.db, {
          userId: currentUserId(c),
          giftId: param.data.id,
          episodeId: data.episodeId,
          claim: c.var.idempotency,
          rentalHours: c.var.edition.rentalHours,
          ageRules: c.var.edition,
        })
      },
      done: (_data, { giftId }) => `/gift?used=${giftId}#gift-${giftId}`,
      failed: (code) => `/gift?error=${code}`,
    }),
  )
  // members only below (the form above sends a guest to log in instead)
  .use(requireUser)
  .get('/', async (c) => {
    return ok(c, await listGifts(c.var.db, currentUserId(c)))
  })
  .post(
    '/:id/use',
    validate('param', GiftParam),
    validate('json', UseGiftRequest),
    idempotent('POST /gift/use', { handlerChecksKey: true }),
    async (c) => {
      const result = await useGift(c.var.db, {
        userId: currentUserId(c),
        giftId: c.req.valid('param').id,
        episodeId: c.req.valid('json').episodeId,
        claim: c.var.idempotency,
        rentalHours: c.var.edition.rentalHours,
        ageRules: c.var.edition,
      })
      return ok(c, result)
    },
  )
