/** `GET /api/v1/contents?tab=&day=&cursor=&size=` (API.md): one page of a home tab (spec §3). */
import { Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import { z } from 'zod'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { listContents } from '../../src/features/catalogue/catalogue.server.ts'
import { audienceFor, MAX_CURSOR_LENGTH, NOT_LOGGED_IN_ADULT_COOKIE, PLATFORMS, resolveContents, weekdayIn } from '../../src/features/catalogue/catalogue.ts'

const ContentsQuery = z.object({
  tab: z.string().max(20).optional(),
  day: z.string().max(20).optional(),
  cursor: z.string().max(MAX_CURSOR_LENGTH).optional(),
  size: z.string().max(3).optional(),
})
const Platform = z.enum(PLATFORMS).catch('WEB')

export const contents = new Hono<AppEnv>().get('/', validate('query', ContentsQuery), async (c) => {
  const edition = c.get('edition')
  // No session yet on this route: the reader is a guest (the session feature adds the signed-in viewer).
  const audience = audienceFor(edition, null, { platform: Platform.parse(c.req.header('x-platform')), adultCookie: getCookie(c, NOT_LOGGED_IN_ADULT_COOKIE) })
  const resolved = resolveContents(c.req.valid('query'), audience, weekdayIn(edition.timeZone))
  if (!resolved.ok) throw new AppError(resolved.code, resolved.field ? { fields: resolved.field } : undefined)
  c.header('Cache-Control', 'private, no-store')
  return ok(c, await listContents(c.get('db'), resolved.request, audience))
})
