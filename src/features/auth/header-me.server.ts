/**
 * The header's personal part drawn for the reader (issue 40 point 1), for the server island that draws it: HeaderMe.astro
 * on most pages, the page's own island where it has one (SeriesMe.astro). The island's call to the reader's object is
 * the request's session check (functions/app.ts `checksSessionItself`): an ended session draws nothing of the reader's,
 * and its cookie is emptied with Max-Age=0 (not Astro's `delete`, whose "deleted" value the signed mark's step would take
 * for a session).
 */
import type { AstroGlobal } from 'astro'
import { AppError } from '../../lib/errors/catalogue.ts'
import { pageRequest } from '../../lib/server/page-request.ts'
import { userMe } from './auth.server.ts'
import type { UserMe } from '../../objects/reader/me.server.ts'
import type { SessionClaim } from '../reader/session-claim.ts'
import { SESSION_COOKIE } from '../session/routes.ts'

type Island = Pick<AstroGlobal, 'locals' | 'cookies' | 'url'>

/** The header's part of `me`'s data (with the unread alarms' count). */
export const headerOf = (me: UserMe | null): { total: number; alarms: number } | null =>
  me && { total: me.coin.total, alarms: me.alarms ?? 0 }

/** `read`, whose call to the reader's object checks their session, for the island's reader; null for a guest or an ended session. */
export async function readChecked<T>(astro: Island, read: (userId: number, claim: SessionClaim) => Promise<T>): Promise<T | null> {
  const { userId, claim } = pageRequest(astro.locals)
  if (userId === null || claim === null) return null
  try {
    return await read(userId, claim)
  } catch (e) {
    if (!(e instanceof AppError && e.code === 'NEED_TO_REFRESH')) throw e
    astro.cookies.set(SESSION_COOKIE, '', {
      path: '/',
      maxAge: 0,
      httpOnly: true,
      sameSite: 'lax',
      secure: astro.url.protocol === 'https:',
    })
    return null
  }
}

/** The header's part for the island's reader (HeaderMe.astro): one call to their object. */
export const headerMe = async (astro: Island) => headerOf(await readChecked(astro, (userId, claim) => userMe(userId, claim, true)))
