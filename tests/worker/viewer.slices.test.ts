/**
 * Issue 24 point 1 on real workerd + D1 + R2 + the Cache API: slices and media without D1. A paid slice is served on
 * its signed URL and the caller's credential alone (0 D1 statements), refused once expired, by another reader or
 * tampered with; an ended session gets no new URL; a free slice's second request comes from `caches.default`
 * (0 D1, 0 R2); an adult slice never enters that cache.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { app, db, expectError, get, newReader, read } from './purchase.helpers.ts'
import { bearer, json, makeUser, outboxFor, tokensFor, webCookie } from './account.helpers.ts'
import { appFor, frEdition, frMessages, request } from './app.ts'
import { parseEdition } from '../../src/lib/edition/schema.ts'
import jp from '../../editions/jp/edition.json'
import { seedDemo } from './seed.ts'
import { fixture, own, PIXELS } from './viewer.helpers.ts'
import { openEpisode } from '../../src/features/viewer/viewer.server.ts'
import { issueTokens } from '../../src/features/auth/auth.server.ts'
import { SLICE_URL_MAX_S } from '../../src/features/viewer/viewer.ts'

beforeAll(async () => {
  await seedDemo(env.DB) // the account routes (withdrawal mail, sign-in) need the edition's rows
})

const cache = () => (caches as unknown as { default: Cache }).default
const inCache = async (url: string) => (await cache().match(new Request(new URL(url, 'http://localhost')))) !== undefined
/** D1 round trips of a request (the app's X-D1-Queries header; absent: none). */
const d1 = (res: Response) => Number(res.headers.get('x-d1-queries') ?? 0)
const expOf = (url: string) => Number(/exp=(\d+)/.exec(url)![1])

/** A signed-in reader (Bearer) who owns the paid episode of a new fixture, and its slice URLs. */
async function ownerOfPaid() {
  const f = await fixture()
  const reader = await newReader()
  await own(reader, f.seriesId, f.paid, 'POSSESSION', null)
  const res = await get(reader, `/api/v1/viewer/${f.paid}`)
  // one D1 batch (the episode, its slices); one call to their object checks the session, answers the holdings (the
  // episode and the next, paid) and the place they stopped, and takes the held paid episode's view (its outbox)
  expect([d1(res), res.headers.get('x-reader-calls')]).toEqual([1, '1'])
  const { data } = await read(res)
  return { f, reader, src: data.slices[0].src as string, srcset: data.slices[1].srcset as string }
}

describe('paid slices: the signature alone', () => {
  it('serves every width of every slice with 0 D1 statements, to an app (Bearer) and a browser (cookie)', async () => {
    const { reader, src, srcset } = await ownerOfPaid()
    for (const url of [src, ...srcset.split(', ').map((c) => c.split(' ')[0]!)]) {
      const res = await get(reader, url)
      expect(res.status, url).toBe(200)
      expect(d1(res), url).toBe(0)
      expect(res.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/)
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(PIXELS)
    }
    // a browser session: the cookie names the reader, still without a statement (no session check, no refresh)
    const user = await makeUser()
    const f = await fixture()
    await own({ id: user.id, headers: {} }, f.seriesId, f.paid, 'RENT', new Date(Date.now() + 86_400_000).toISOString())
    const cookie = { cookie: await webCookie(user.email) }
    const { data } = await read(await request(app, `/api/v1/viewer/${f.paid}`, { headers: cookie }))
    const res = await request(app, data.slices[0].src, { headers: cookie })
    expect(res.status).toBe(200)
    expect(d1(res)).toBe(0)
    expect(res.headers.get('set-cookie')).toBeNull()
  })

  it('refuses a URL once its expiry has passed (a URL signed SLICE_URL_MAX_S ago), and one that asks for more time', async () => {
    const { f, reader, src } = await ownerOfPaid()
    expect(expOf(src) - Date.now() / 1000).toBeLessThanOrEqual(SLICE_URL_MAX_S)
    // the same episode opened by the same reader, as the server would have signed it a quarter of an hour ago
    const then = new Date(Date.now() - SLICE_URL_MAX_S * 1000)
    const old = await openEpisode(db, f.paid, { userId: reader.id }, frEdition, then)
    const stale = old!.slices[0]!.src
    expect(expOf(stale)).toBeLessThanOrEqual(Date.now() / 1000)
    const res = await get(reader, stale)
    await expectError(res, 403, 'UNAUTHORIZED_CONTENTS')
    expect(d1(res)).toBe(0)
    await expectError(await get(reader, stale.replace(/exp=\d+/, `exp=${expOf(src)}`)), 403, 'UNAUTHORIZED_CONTENTS')
  })

  it("refuses a tampered URL, another reader's, a guest's use of it — and serves none of it from the cache", async () => {
    const { f, reader, src } = await ownerOfPaid()
    expect((await get(reader, src)).status).toBe(200)
    const other = await newReader()
    await own(other, f.seriesId, f.paid, 'POSSESSION', null) // even one who owns the episode too
    const sig = /sig=([^&]+)/.exec(src)![1]!
    const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`
    const tampered = [
      src.replace(sig, flipped),
      src.replace('w=640', 'w=828'),
      src.replace('/slice/1', '/slice/2'),
      src.replace(`%2F${f.seriesId}%2F`, `%2F${f.seriesId + 1}%2F`),
      src.replace(/&sig=.*/, ''),
    ]
    for (const url of tampered) {
      const res = await get(reader, url)
      await expectError(res, 403, 'UNAUTHORIZED_CONTENTS')
      expect(res.headers.get('x-edge-cache')).toBeNull()
    }
    for (const who of [other, null]) await expectError(await get(who, src), 403, 'UNAUTHORIZED_CONTENTS')
    expect(await inCache(src)).toBe(false)
  })
  it("a jp guest who answered the age question gets an adult free episode's slices signed for a guest: no one signed in may use them", async () => {
    const jpEdition = parseEdition('jp', jp)
    const jpApp = appFor(jpEdition, frMessages)
    const f = await fixture({ adult: true })
    const guest = { cookie: 'not-login-adult=Y' }
    const { data } = await read(await request(jpApp, `/api/v1/viewer/${f.free}`, { headers: guest }))
    const src: string = data.slices[0].src
    expect(src).toMatch(/^\/api\/v1\/viewer\/\d+\/slice\/1\?/)
    const res = await request(jpApp, src, { headers: guest })
    expect([res.status, d1(res)]).toEqual([200, 0])
    const member = await newReader()
    const token = (await issueTokens(db, member.id, { issuer: jpEdition.siteUrl, t: (k) => k })).accessToken.value
    await expectError(await request(jpApp, src, { headers: bearer(token) }), 403, 'UNAUTHORIZED_CONTENTS')
    expect(await inCache(src)).toBe(false)
  })
})

describe('an ended session gets no new slice URL; the outstanding ones expire within minutes', () => {
  async function readerOfPaid() {
    const user = await makeUser()
    const f = await fixture()
    await own({ id: user.id, headers: {} }, f.seriesId, f.paid, 'POSSESSION', null)
    const tokens = bearer((await tokensFor(user.email)).accessToken.value)
    const browser = { cookie: await webCookie(user.email) }
    const { data } = await read(await get({ headers: tokens }, `/api/v1/viewer/${f.paid}`))
    return { user, f, app: tokens, browser, issued: data.slices[0].src as string }
  }

  async function expectNoNewUrl(r: Awaited<ReturnType<typeof readerOfPaid>>) {
    // the app is told to refresh (which then fails); the browser is signed out and its cookie cleared
    for (const [headers, code] of [
      [r.app, 'NEED_TO_REFRESH'],
      [r.browser, 'NOT_FOUND_ACCESS_TOKEN'],
    ] as const) {
      const res = await request(app, `/api/v1/viewer/${r.f.paid}`, { headers })
      const text = await res.clone().text()
      expect(text).not.toMatch(/\/slice\/|\/media\//)
      await expectError(res, 401, code)
      if (headers === r.browser) expect(res.headers.get('set-cookie')).toMatch(/wt_session=;/)
    }
    // the URL issued before the end lives at most SLICE_URL_MAX_S more (served on its signature alone until then)
    expect(expOf(r.issued) - Date.now() / 1000).toBeLessThanOrEqual(SLICE_URL_MAX_S)
  }

  it('after a withdrawal', async () => {
    const r = await readerOfPaid()
    await json('POST', '/api/v1/user/withdrawal', { reasons: ['PRIVACY'], agree: true }, r.app)
    const url = new URL(/https?:\/\/\S+/.exec((await outboxFor(r.user.email, 'withdrawal'))[0]!.body)![0])
    const approve = await json('POST', '/api/v1/user/withdrawal/approve', { userId: r.user.id, uuid: url.searchParams.get('uuid') })
    expect(approve.status).toBe(200)
    await expectNoNewUrl(r)
  })

  it('after "sign out everywhere"', async () => {
    const r = await readerOfPaid()
    const res = await request(app, '/api/v1/auth/web/logout-all', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost', ...r.browser },
      body: '',
      redirect: 'manual',
    })
    expect(res.headers.get('location')).toBe('/callback/logout-success')
    await expectNoNewUrl(r)
  })
})

describe('free slices and covers from the edge cache', () => {
  it("answers a free slice's second request from caches.default: 0 D1 statements, 0 R2 reads (object deleted meanwhile)", async () => {
    const f = await fixture()
    const open = await get(null, `/api/v1/viewer/${f.free}`)
    const src: string = (await read(open)).data.slices[0].src
    expect(src).toMatch(/^\/media\/series\/\d+\/ep\/1\/1\/640\.webp\?s=/)
    const first = await get(null, src)
    expect(first.status).toBe(200)
    expect(first.headers.get('x-edge-cache')).toBe('MISS')
    expect(d1(first)).toBe(0)
    await first.arrayBuffer()
    await env.MEDIA.delete(`series/${f.seriesId}/ep/1/1/640.webp`)
    // another reader, with cookies of their own: the key is the URL alone
    const second = await request(app, src, { headers: { cookie: 'wt_session=whatever; not-login-adult=Y' } })
    expect(second.status).toBe(200)
    expect(second.headers.get('x-edge-cache')).toBe('HIT')
    expect(d1(second)).toBe(0)
    expect(second.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(PIXELS)
    const etag = second.headers.get('etag')!
    expect((await request(app, src, { headers: { 'if-none-match': etag } })).status).toBe(304)
  })

  it('serves nothing from the cache for a tampered or missing public signature', async () => {
    const f = await fixture()
    const src: string = (await read(await get(null, `/api/v1/viewer/${f.free}`))).data.slices[0].src
    expect((await get(null, src)).status).toBe(200)
    expect(await inCache(src)).toBe(true)
    const path = src.split('?')[0]!
    for (const url of [path, `${path}?s=${'A'.repeat(43)}`, src.replace('/ep/1/1/', '/ep/2/1/')]) {
      const res = await get(null, url)
      expect(res.status, url).toBe(404)
      expect(res.headers.get('x-edge-cache')).toBeNull()
    }
  })

  it('keeps covers too: a second request costs no R2 read', async () => {
    const key = `covers/slices-test-${crypto.randomUUID()}`
    await env.MEDIA.put(`${key}/256.webp`, PIXELS, { httpMetadata: { contentType: 'image/webp' } })
    expect((await get(null, `/media/${key}/256.webp`)).headers.get('x-edge-cache')).toBe('MISS')
    await env.MEDIA.delete(`${key}/256.webp`)
    const again = await get(null, `/media/${key}/256.webp`)
    expect([again.status, again.headers.get('x-edge-cache'), d1(again)]).toEqual([200, 'HIT', 0])
  })

  it('never puts an adult slice in the public cache, free episode included', async () => {
    const f = await fixture({ adult: true })
    const adult = await newReader()
    for (const id of [f.free, f.paid]) {
      if (id === f.paid) await own(adult, f.seriesId, f.paid, 'POSSESSION', null)
      const { data } = await read(await get(adult, `/api/v1/viewer/${id}`))
      const src: string = data.slices[0].src
      expect(src).toMatch(/^\/api\/v1\/viewer\/\d+\/slice\/1\?/)
      const res = await get(adult, src)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toMatch(/^private/)
      expect(await inCache(src)).toBe(false)
      const media = `/media/series/${f.seriesId}/ep/${id === f.free ? 1 : 2}/1/640.webp`
      expect((await get(adult, media)).status).toBe(404)
      expect(await inCache(media)).toBe(false)
    }
  })
})
