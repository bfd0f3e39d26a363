/**
 * Issue 11: catalogue pages are cached per audience class, never per person, through the real Cache API in
 * workerd. A page here renders what a catalogue page would list for the request's class (pageSees), so a
 * page served to the wrong class shows at once.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import type { MiddlewareHandler } from 'hono'
import { pageContext } from '../../functions/lib/page-context.ts'
import { createApp } from '../../functions/app.ts'
import type { AppEnv } from '../../functions/lib/env.ts'
import { pageAudience, pageSees } from '../../src/features/age/page-audience.server.ts'
import { frEdition, frMessages, request } from './app.ts'
import { makeUser, webCookie } from './account.helpers.ts'

function catalogueApp() {
  let renders = 0
  const page: MiddlewareHandler<AppEnv> = async (c) => {
    renders++
    c.header('Cache-Control', 'public, max-age=0, s-maxage=60, stale-while-revalidate=600')
    const locals = { cfContext: pageContext(c) } // as functions/worker.ts hands the page to Astro
    return c.html(`<p data-class="${pageAudience(locals)}" data-adult="${pageSees(locals).showAdult}">render ${renders}</p>`)
  }
  return {
    app: createApp({ edition: frEdition, messages: frMessages, pages: [page], buildId: `aud-${Math.random()}` }),
    renders: () => renders,
  }
}

const classOf = async (res: Response) => /data-class="([^"]+)"/.exec(await res.text())?.[1]

async function reader(kind: 'adult' | 'minor' | 'member' | 'adult-off') {
  const user = await makeUser()
  const flags = {
    adult: [1, '1990-05-01', new Date().toISOString(), 1],
    'adult-off': [1, '1990-05-01', new Date().toISOString(), 0],
    minor: [0, '2013-06-01', null, 0],
    member: [0, null, null, 0],
  }[kind]
  await env.DB.prepare(`UPDATE users SET is_adult = ?, birthed_at = ?, adult_verified_at = ?, show_adult = ? WHERE id = ?`)
    .bind(...flags, user.id)
    .run()
  return { id: user.id, cookie: await webCookie(user.email) }
}

describe('edge cache per audience class (issue 11)', () => {
  it('never serves a minor the page an adult got, nor an adult the guest page, on the same URL', async () => {
    const { app, renders } = catalogueApp()
    const adult = await reader('adult')
    const minor = await reader('minor')

    const a1 = await request(app, '/home/ranking', { headers: { cookie: adult.cookie } })
    expect(a1.headers.get('x-edge-cache')).toBe('MISS')
    expect(a1.headers.get('cache-control')).toBe('private, max-age=0') // the browser keeps its own copy only
    expect(await classOf(a1)).toBe('adult')

    const m1 = await request(app, '/home/ranking', { headers: { cookie: minor.cookie } })
    expect(await classOf(m1)).toBe('minor')
    expect(m1.headers.get('x-edge-cache')).toBe('MISS')

    const g1 = await request(app, '/home/ranking')
    expect(await classOf(g1)).toBe('guest')
    expect(g1.headers.get('cache-control')).toContain('public')

    // second views: each class gets its own cached copy, no render
    const a2 = await request(app, '/home/ranking', { headers: { cookie: adult.cookie } })
    expect(a2.headers.get('x-edge-cache')).toBe('HIT')
    expect(await classOf(a2)).toBe('adult')
    // the session check only, in the reader's object (no D1 query); it also gave the class
    expect([a2.headers.get('x-d1-queries'), a2.headers.get('x-reader-calls')]).toEqual([null, '1'])
    const m2 = await request(app, '/home/ranking', { headers: { cookie: minor.cookie } })
    expect(await classOf(m2)).toBe('minor')
    const g2 = await request(app, '/home/ranking')
    expect(await classOf(g2)).toBe('guest')
    expect(g2.headers.get('x-d1-queries')).toBeNull()
    expect(renders()).toBe(3)
  })

  it('shares one copy among readers of one class, and a class change shows on the next view', async () => {
    const { app, renders } = catalogueApp()
    const one = await reader('adult')
    const two = await reader('adult')
    await request(app, '/home/free', { headers: { cookie: one.cookie } })
    const other = await request(app, '/home/free', { headers: { cookie: two.cookie } })
    expect(other.headers.get('x-edge-cache')).toBe('HIT')
    expect(renders()).toBe(1)
    // the adult switch goes off (PUT /user/adult/toggle/false): the next page is the adult-off class's
    const off = await request(app, '/api/v1/user/adult/toggle/false', {
      method: 'PUT',
      headers: { cookie: two.cookie, origin: 'http://localhost' },
    })
    expect(off.status).toBe(200)
    const after = await request(app, '/home/free', { headers: { cookie: two.cookie } })
    expect(await classOf(after)).toBe('adult-off')
    expect(after.text).toBeDefined()
  })

  it('takes the class from the verified session only: forged cookies and headers change nothing', async () => {
    const { app } = catalogueApp()
    const minor = await reader('minor')
    const attempts: [Record<string, string>, string][] = [
      [{ cookie: `${minor.cookie}; not-login-adult=Y` }, 'minor'], // the jp guest cookie counts for no member, and not on fr
      [{ cookie: 'wt_session=forged-value' }, 'guest'],
      [{ cookie: 'not-login-adult=Y' }, 'guest'],
      [{ cookie: minor.cookie, 'x-platform': 'IOS_APP' }, 'minor'],
    ]
    for (const [headers, expected] of attempts)
      expect(await classOf(await request(app, '/search', { headers })), JSON.stringify(headers)).toBe(expected)
    const member = await reader('member')
    expect(await classOf(await request(app, '/search', { headers: { cookie: member.cookie } }))).toBe('member')
    const adultOff = await reader('adult-off')
    expect(await classOf(await request(app, '/search', { headers: { cookie: adultOff.cookie } }))).toBe('adult-off')
  })
})
