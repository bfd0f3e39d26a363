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

async function settle(c: Context<AppEnv>, claim: IdempotencyClaim): Promise<Response> {
  const outcome = await lookupIdempotency(c.var.db, claim)
  if (outcome.kind === 'exists') return replay(outcome.response)
  throw new AppError('IDEMPOTENCY_KEY_REUSED')
}

/** The middleware for one route; `scope` names it (e.g. 'POST /purchase'): a key is bound to one route. */
export function idempotent(scope: string, opts: { handlerChecksKey?: boolean } = {}) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER)
    if (!isIdempotencyKey(key)) throw new AppError('INVALID_PARAMETER', { fields: IDEMPOTENCY_HEADER })
    const claim: IdempotencyClaim = { userId: currentUserId(c), key, scope, requestHash: await requestHash(scope, await c.req.text()) }
    if (!opts.handlerChecksKey) {
      const outcome = await lookupIdempotency(c.var.db, claim)
      if (outcome.kind === 'exists') return replay(outcome.response)
      if (outcome.kind === 'exists_with_different_body') throw new AppError('IDEMPOTENCY_KEY_REUSED')
    }
    c.set('idempotency', claim)
    await next()
    if (c.error instanceof IdempotencyKeyTaken) {
      c.error = undefined
      c.res = await settle(c, claim)
    }
  })
}
