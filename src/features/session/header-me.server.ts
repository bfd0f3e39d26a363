/**
 * The header's personal part drawn for the reader (issue 40 point 1), for the server island that draws it: HeaderMe.astro
 * on most pages, the page's own island where it has one (SeriesMe.astro). Its one call to the reader's object is the
 * request's session check (functions/app.ts `checksSessionItself`): an ended session answers null, and its cookie is
 * emptied with Max-Age=0 (not Astro's `delete`, whose "deleted" value the signed mark's step would take for a session).
 */
import type { AstroGlobal } from 'astro'
import { AppError } from '../../lib/errors/catalogue.ts'
import { pageRequest } from '../../lib/server/page-request.ts'
import { userMe } from '../auth/auth.server.ts'
import { SESSION_COOKIE } from './routes.ts'

export type HeaderMe = { total: number; alarms: number }

export async function headerMe(astro: Pick<AstroGlobal, 'locals' | 'cookies' | 'url'>): Promise<HeaderMe | null> {
  const { userId, claim } = pageRequest(astro.locals)
  if (userId === null || claim === null) return null
  const me = await userMe(userId, claim, true).catch((e: unknown) => {
    if (e instanceof AppError && e.code === 'NEED_TO_REFRESH') return null
    throw e
  })
  if (me) return { total: me.coin.total, alarms: me.alarms ?? 0 }
  astro.cookies.set(SESSION_COOKIE, '', { path: '/', maxAge: 0, httpOnly: true, sameSite: 'lax', secure: astro.url.protocol === 'https:' })
  return null
}
