import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import type { Db, DbStart } from '../../src/lib/server/db.ts'

/**
 * D1 read replicas (docs/ARCHITECTURE.md "Read replicas"): a request's D1 session may read from any replica, except
 * the operator API (it decides on what it reads); a reader who just wrote carries the session's bookmark for a minute
 * (cookie `wt_d1`, or the `X-D1-Bookmark` header an app sends back), so their next requests read at least their own
 * writes, whichever replica answers.
 */
const COOKIE = 'wt_d1'
const HEADER = 'x-d1-bookmark'
/** Replicas follow the primary within seconds; a minute is far past that. */
const KEEP_SECONDS = 60
/** A bookmark as D1 writes it (hex groups and dashes); anything else is ignored. */
const BOOKMARK = /^[0-9a-f-]{8,100}$/

export function dbStart(c: Context): DbStart {
  if (c.req.path.startsWith('/api/ops/')) return 'first-primary'
  const sent = c.req.header(HEADER) ?? getCookie(c, COOKIE)
  return sent !== undefined && BOOKMARK.test(sent) ? sent : 'first-unconstrained'
}

/** After a request that wrote: its bookmark goes back, never on a response a shared cache may keep. */
export function keepBookmark(c: Context, db: Db & { readonly usage: { rowsWritten: number } }): void {
  const bookmark = db.bookmark()
  if (db.usage.rowsWritten === 0 || bookmark === null || /\bpublic\b/.test(c.res.headers.get('cache-control') ?? '')) return
  c.res.headers.set('X-D1-Bookmark', bookmark)
  setCookie(c, COOKIE, bookmark, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
    maxAge: KEEP_SECONDS,
  })
}
