/**
 * The purchase routes' request bodies (docs/API.md `POST /api/v1/purchase`, `POST /purchase/web`), apart from the
 * sale rules (purchase.ts) so that the browser's rent-or-buy preview loads the rules without zod (issue 43 point 4).
 */
import { z } from 'zod'
import { RowId } from '../../lib/ids.ts'
import { MAX_EPISODES_PER_PURCHASE, PURCHASE_KINDS } from './purchase.ts'

/**
 * docs/API.md `POST /api/v1/purchase` body. Duplicate ids are refused: each episode is sold once per request.
 * `auto`: an automatic unlock of continuous reading (one episode), counted against the reader's cap for its
 * series in the purchase itself (`AUTO_UNLOCK_SQL` in purchase.server.ts).
 */
export const PurchaseRequest = z
  .object({
    episodeIds: z
      .array(RowId)
      .min(1)
      .max(MAX_EPISODES_PER_PURCHASE)
      .refine((ids) => new Set(ids).size === ids.length, 'duplicate episode ids'),
    kind: z.enum(PURCHASE_KINDS),
    auto: z.boolean().optional(),
  })
  .refine((r) => !r.auto || r.episodeIds.length === 1, { path: ['auto'], message: 'an automatic unlock is one episode' })
export type PurchaseRequest = z.infer<typeof PurchaseRequest>

/** docs/API.md `POST /purchase/web`: the plain form of one episode (the viewer's "buy for good"). */
export const PurchaseForm = z.object({ episodeId: RowId, kind: z.enum(PURCHASE_KINDS) })
