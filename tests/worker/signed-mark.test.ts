/**
 * The `wt_signed` mark beside the session cookie (functions/middleware/signed-mark.ts, issue 40 point 1): the page
 * script loads the signed-in header's code only where the browser holds it, so it must follow the session cookie —
 * given with it, taken with it, and never stored by the edge cache for others.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { request } from './app.ts'
import { app, form, ORIGIN } from './account.helpers.ts'
import { seedDemo, DEMO_ACCOUNTS } from './seed.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

const READER = DEMO_ACCOUNTS.reader
const cookies = (res: Response) => res.headers.getSetCookie()
const markOf = (res: Response) => cookies(res).find((c) => c.startsWith('wt_signed='))
const sessionOf = (res: Response) => /^wt_session=([^;]+)/.exec(cookies(res).find((c) => c.startsWith('wt_session=')) ?? '')?.[1]
const get = (path: string, cookie?: string) => request(app, path, { headers: cookie ? { cookie } : {} })

describe('the signed-in mark follows the session cookie', () => {
  it('a sign-in gives it, readable by the page script, with the session cookie', async () => {
    const res = await form('/api/v1/auth/web/sign-in', { email: READER.email, password: READER.password, callback: '/' })
    expect(sessionOf(res)).toBeTruthy()
    const mark = markOf(res)!
    expect(mark).toMatch(/^wt_signed=1;/)
    expect(mark).not.toMatch(/HttpOnly/i)
    expect(mark).toMatch(/Path=\//)
  })

  it('a browser holding a session but no mark (signed in before the mark existed) gets it on its next page, not cached', async () => {
    const signIn = await form('/api/v1/auth/web/sign-in', { email: READER.email, password: READER.password, callback: '/' })
    const session = `wt_session=${sessionOf(signIn)}`
    const page = await get('/faq', session)
    expect(page.status).toBe(200)
    expect(markOf(page)).toMatch(/^wt_signed=1;/)
    expect(page.headers.get('cache-control')).toBe('private, no-store')
    const marked = await get('/faq', `${session}; wt_signed=1`)
    expect(markOf(marked)).toBeUndefined()
  })

  it('a guest gets none; a mark without a session is taken back', async () => {
    expect(markOf(await get('/faq'))).toBeUndefined()
    const stale = await get('/faq', 'wt_signed=1')
    expect(markOf(stale)).toMatch(/^wt_signed=;.*Max-Age=0/i)
  })

  it('a sign-out and a refused session take it back with the session cookie', async () => {
    const signIn = await form('/api/v1/auth/web/sign-in', { email: READER.email, password: READER.password, callback: '/' })
    const jar = `wt_session=${sessionOf(signIn)}; wt_signed=1`
    const out = await request(app, '/api/v1/auth/web/logout', {
      method: 'POST',
      headers: { cookie: jar, origin: ORIGIN },
      redirect: 'manual',
    })
    expect(out.status).toBe(303)
    expect(markOf(out)).toMatch(/^wt_signed=;.*Max-Age=0/i)
    const forged = await get('/faq', 'wt_session=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..aaaa.bbbb.cccc; wt_signed=1')
    expect(markOf(forged)).toMatch(/^wt_signed=;.*Max-Age=0/i)
  })
})
