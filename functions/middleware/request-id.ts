import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../lib/env.ts'

const VALID = /^[A-Za-z0-9._-]{8,64}$/

/** Request id: kept from a well-formed `X-Request-Id`, else new; echoed on every response. */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header('x-request-id')
  const id = incoming && VALID.test(incoming) ? incoming : crypto.randomUUID()
  c.set('requestId', id)
  await next()
  c.res.headers.set('X-Request-Id', id)
})
