/**
 * docs/API.md Idempotency-Key for writes that move coins or ownership (mount after `requireUser`):
 * - the header is required, 1–255 visible characters: missing or bad → 400 INVALID_PARAMETER;
 * - a key already stored for this reader with the same route and body → the stored first response
 *   (status and body), marked `Idempotent-Replayed: true`; nothing runs, nothing moves;
 * - the same key with another body (or route) → 409 IDEMPOTENCY_KEY_REUSED;
 * - otherwise the handler runs with `c.var.idempotency` (the claim); the write stores its answer in the
 *   same D1 batch as its money (`storeResponseStatement`). When a duplicate in flight committed first, the
 *   write fails as a whole with IdempotencyKeyTaken and this middleware answers with the winner's row.
 * Failures (4xx) are not stored: nothing moved, so the client may retry the same key once it fixed the
 * cause (e.g. bought coins after COIN_INSUFFICIENT).
 * `form`: a plain-form route (functions/api/forms.ts `formRoute`): the key is a field of the form, the body its
 * validated fields, and a replay is the form's answer (a 303) built from the stored first answer.
 * `handlerChecksKey`: the handler's first read batch looks the key up itself and throws IdempotencyKeyTaken
 * before deciding anything, so the up-front lookup (one D1 round trip of three on a purchase) is skipped.
 */
import { createMiddleware } from 'hono/factory'
import type { Context } from 'hono'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { isIdempotencyKey, requestHash, type IdempotencyClaim, type StoredResponse } from '../../src/features/wallet/idempotency.ts'
import { IdempotencyKeyTaken, lookupIdempotency } from '../../src/features/wallet/idempotency.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { currentUserId } from './session.ts'
import { PERSONAL } from '../../src/lib/cache.ts'

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by `idempotent` for the handler: the claim its write stores with its batch. */
    idempotency: IdempotencyClaim
  }
}

const IDEMPOTENCY_HEADER = 'Idempotency-Key'

function replay(stored: StoredResponse): Response {
  return new Response(stored.body, {
    status: stored.status,
    headers: { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true', 'Cache-Control': PERSONAL },
  })
}

/** Where a plain form carries its key and its fields, and how it answers a replay. */
type FormSource = {
  key: (c: Context<AppEnv>) => string | undefined
  body: (c: Context<AppEnv>) => string
  replay: (c: Context<AppEnv>, stored: StoredResponse) => Response | Promise<Response>
}

/** The middleware for one route; `scope` names it (e.g. 'POST /purchase'): a key is bound to one route. */
export function idempotent(scope: string, opts: { handlerChecksKey?: boolean; form?: FormSource } = {}) {
  const { form } = opts
  const answer = (c: Context<AppEnv>, stored: StoredResponse) => (form ? form.replay(c, stored) : replay(stored))
  return createMiddleware<AppEnv>(async (c, next) => {
    const key = form ? form.key(c) : c.req.header(IDEMPOTENCY_HEADER)
    if (!isIdempotencyKey(key)) throw new AppError('INVALID_PARAMETER', { fields: form ? 'key' : IDEMPOTENCY_HEADER })
    const claim: IdempotencyClaim = {
      userId: currentUserId(c),
      key,
      scope,
      requestHash: await requestHash(scope, form ? form.body(c) : await c.req.text()),
    }
    if (!opts.handlerChecksKey) {
      const outcome = await lookupIdempotency(c.var.db, claim)
      if (outcome.kind === 'exists') return await answer(c, outcome.response)
      if (outcome.kind === 'exists_with_different_body') throw new AppError('IDEMPOTENCY_KEY_REUSED')
    }
    c.set('idempotency', claim)
    await next()
    if (c.error instanceof IdempotencyKeyTaken) {
      c.error = undefined
      const outcome = await lookupIdempotency(c.var.db, claim)
      if (outcome.kind !== 'exists') throw new AppError('IDEMPOTENCY_KEY_REUSED')
      c.res = await answer(c, outcome.response)
    }
  })
}
