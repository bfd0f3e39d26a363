/**
 * Issue 12 point 5, the discreet library: `POST /api/v1/library/hidden` `{seriesId, hidden}`, `GET /library/hidden`
 * and the pages' forms `POST /library/web/hide|show`. A hidden series leaves /library/my, /library/favorite,
 * /library/recent (and so home's continue-reading row) and stays owned, favourite and readable.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { expectHandled, request } from './app.ts'
import { marksIn, placesOf, readerObject } from './reader.helpers.ts'
import { app, buy, db, expectError, get, give, newReader, newSeries, read, send, type Reader } from './purchase.helpers.ts'
import { isErrorCode } from '../../src/lib/errors/catalogue.ts'
import { readerRows } from './reader-rows.ts'

const hide = (reader: Reader, seriesId: unknown, hidden = true) =>
  send(reader, 'POST', '/api/v1/library/hidden', JSON.stringify({ seriesId, hidden }))
const form = (reader: Reader | null, action: 'hide' | 'show', fields: Record<string, string>, origin = 'http://localhost') =>
  request(app, `/api/v1/library/web/${action}`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded', ...(reader?.headers ?? {}) },
    body: new URLSearchParams(fields).toString(),
  })
const ids = async (reader: Reader, shelf: 'my' | 'favorite' | 'recent' | 'hidden') =>
  (await read(await get(reader, `/api/v1/library/${shelf}`))).data.items.map((i: { seriesId: number }) => i.seriesId)
/** Everything the reader keeps of their series: hiding must change none of it. */
const kept = async (userId: number) => ({
  ownerships: await readerRows.all(userId, `SELECT episode_id, kind, expires_at FROM ownerships WHERE user_id = ? ORDER BY id`, userId),
  favorites: (await marksIn(userId)).favorite,
  progress: (await placesOf(userId)).map((p) => [p.seriesId, p.episodeId, p.position]).sort(),
})
const hiddenRows = async (userId: number) => (await marksIn(userId)).hidden
const isHidden = async (userId: number, seriesId: number) => (await readerObject(userId).inSeries(userId, seriesId)).hidden

/** A reader who bought episode 2 of a series, favourited it and read into it, plus a second series on every shelf. */
async function libraryOfTwo() {
  const reader = await newReader()
  await give(reader.id, 'COIN', 100)
  const a = await newSeries({ episodes: 3, free: 1 })
  const b = await newSeries({ episodes: 3, free: 1 })
  for (const s of [a, b]) {
    expect((await buy(reader, { episodeIds: [s.episodeIds[1]], kind: 'POSSESSION' })).status).toBe(200)
    expect((await request(app, `/api/v1/library/favorite/${s.seriesId}`, { method: 'POST', headers: reader.headers })).status).toBe(200)
    const saved = await send(reader, 'POST', `/api/v1/viewer/${s.episodeIds[1]}/progress`, JSON.stringify({ position: 0.4 }))
    expect(saved!.status).toBe(200)
  }
  return { reader, a, b }
}

describe('hiding a series from the library', () => {
  it('takes it off my, favorite and recent, lists it as hidden, and brings it back', async () => {
    const { reader, a, b } = await libraryOfTwo()
    for (const shelf of ['my', 'favorite', 'recent'] as const) expect(await ids(reader, shelf)).toEqual([b.seriesId, a.seriesId])
    const before = await kept(reader.id)

    const res = await hide(reader, a.seriesId)
    expect(res!.status).toBe(200)
    expect((await read(res!)).data).toEqual({ seriesId: a.seriesId, hidden: true })
    for (const shelf of ['my', 'favorite', 'recent'] as const) expect(await ids(reader, shelf), shelf).toEqual([b.seriesId])
    const hidden = await get(reader, '/api/v1/library/hidden')
    expect(hidden.headers.get('cache-control')).toBe('private, no-store')
    expect((await read(hidden)).data).toEqual({
      items: [expect.objectContaining({ seriesId: a.seriesId, title: expect.any(String), hiddenAt: expect.any(String) })],
      next: null,
    })
    expect(await isHidden(reader.id, a.seriesId)).toBe(true)
    expect(await isHidden(reader.id, b.seriesId)).toBe(false)

    // still owned, favourite and readable: nothing but the listing changed
    expect(await kept(reader.id)).toEqual(before)
    expect((await get(reader, `/api/v1/viewer/${a.episodeIds[1]}`)).status).toBe(200)
    const me = (await read(await get(reader, `/api/v1/contents/${a.seriesId}/me`))).data
    expect(me).toMatchObject({
      favorite: true,
      continueReading: { episodeId: a.episodeIds[1] },
      ownerships: [{ episodeId: a.episodeIds[1] }],
    })

    // hiding again changes nothing; bringing it back puts it where it was on every shelf
    expect((await hide(reader, a.seriesId))!.status).toBe(200)
    expect(await hiddenRows(reader.id)).toHaveLength(1)
    expect((await read((await hide(reader, a.seriesId, false))!)).data).toEqual({ seriesId: a.seriesId, hidden: false })
    for (const shelf of ['my', 'favorite', 'recent'] as const) expect(await ids(reader, shelf)).toEqual([b.seriesId, a.seriesId])
    expect(await ids(reader, 'hidden')).toEqual([])
    expect(await isHidden(reader.id, a.seriesId)).toBe(false)
    expect(await kept(reader.id)).toEqual(before)
  })

  it('refuses an unknown or unpublished series, a bad body and a guest, changing nothing', async () => {
    const reader = await newReader()
    const s = await newSeries({ episodes: 1, free: 1 })
    await db.run(`UPDATE series SET is_published = 0 WHERE id = ?`, s.seriesId)
    await expectError((await hide(reader, s.seriesId))!, 404, 'NOT_EXIST')
    await expectError((await hide(reader, 2_000_000_000))!, 404, 'NOT_EXIST')
    await expectError((await hide(reader, 'x'))!, 400, 'INVALID_PARAMETER')
    await expectError(
      (await send(reader, 'POST', '/api/v1/library/hidden', JSON.stringify({ seriesId: s.seriesId })))!,
      400,
      'INVALID_PARAMETER',
    )
    expect(await hiddenRows(reader.id)).toEqual([])
    await expectError(
      await request(app, '/api/v1/library/hidden', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"seriesId":1,"hidden":true}',
      }),
      401,
      'NOT_LOGIN_USER',
    )
    await expectError(await get(null, '/api/v1/library/hidden'), 401, 'NOT_LOGIN_USER')
    await expectError(await get(reader, '/api/v1/library/hidden?cursor=abc'), 400, 'INVALID_PARAMETER')
  })

  it('is per reader: another account can neither read nor change my hidden list', async () => {
    const { reader, a } = await libraryOfTwo()
    const other = await newReader()
    await give(other.id, 'COIN', 100)
    expect((await buy(other, { episodeIds: [a.episodeIds[1]], kind: 'POSSESSION' })).status).toBe(200)
    expect((await hide(reader, a.seriesId))!.status).toBe(200)

    expect(await ids(other, 'hidden')).toEqual([]) // my list is not theirs
    expect(await ids(other, 'my')).toEqual([a.seriesId]) // my choice does not hide it for them
    // their "show" (and a body naming my account) cannot bring it back on my shelves
    expect((await hide(other, a.seriesId, false))!.status).toBe(200)
    await expectError(
      (await send(other, 'POST', '/api/v1/library/hidden', JSON.stringify({ seriesId: a.seriesId, hidden: false, userId: reader.id })))!,
      400,
      'INVALID_PARAMETER',
    )
    expect((await form(other, 'show', { seriesId: String(a.seriesId), from: 'hidden' })).status).toBe(303)
    expect(await ids(reader, 'hidden')).toEqual([a.seriesId])
    expect(await ids(reader, 'my')).not.toContain(a.seriesId)
    // and their hiding it leaves my shelves alone
    const b = await newSeries({ episodes: 1, free: 1 })
    await send(reader, 'POST', `/api/v1/viewer/${b.episodeIds[0]}/progress`, JSON.stringify({ position: 0.2 }))
    expect((await hide(other, b.seriesId))!.status).toBe(200)
    expect(await ids(reader, 'recent')).toContain(b.seriesId)
  })

  it('40 simultaneous hides of one series store one row, and all answer hidden', async () => {
    const reader = await newReader()
    const s = await newSeries({ episodes: 1, free: 1 })
    const answers = await Promise.all(Array.from({ length: 40 }, () => hide(reader, s.seriesId)))
    expect(answers.map((r) => r!.status)).toEqual(Array(40).fill(200))
    expect(await hiddenRows(reader.id)).toHaveLength(1)
  })
})

describe('the library pages’ forms (no JavaScript)', () => {
  it('hide goes back to the page offering to undo, show to the page saying so; refusals name a catalogue code', async () => {
    const { reader, a } = await libraryOfTwo()
    const hid = await form(reader, 'hide', { seriesId: String(a.seriesId), from: 'recent' })
    expect(hid.status).toBe(303)
    expect(hid.headers.get('location')).toBe(`/library/recent?hidden=${a.seriesId}`)
    expect(await ids(reader, 'recent')).not.toContain(a.seriesId)
    const shown = await form(reader, 'show', { seriesId: String(a.seriesId), from: 'hidden' })
    expect(shown.headers.get('location')).toBe('/library/hidden?shown=1')
    expect(await ids(reader, 'recent')).toContain(a.seriesId)

    expect((await form(reader, 'hide', { seriesId: '2000000000', from: 'my' })).headers.get('location')).toBe('/library/my?error=NOT_EXIST')
    expect((await form(reader, 'hide', { seriesId: 'x', from: 'favorite' })).headers.get('location')).toBe(
      '/library/favorite?error=INVALID_PARAMETER',
    )
    expect((await form(reader, 'hide', { seriesId: String(a.seriesId), from: '//evil.example' })).headers.get('location')).toBe(
      '/library/my?error=INVALID_PARAMETER',
    )
    expect((await form(null, 'hide', { seriesId: String(a.seriesId), from: 'my' })).headers.get('location')).toMatch(/^\/user\/login\?/)
    await expectError(
      await form(reader, 'hide', { seriesId: String(a.seriesId), from: 'my' }, 'https://evil.example'),
      403,
      'FORBIDDEN_ORIGIN',
    )
    expect(await hiddenRows(reader.id)).toEqual([])
  })
})

describe('bad input on the hidden routes (1,000 runs each)', () => {
  const scalar = fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 30 }), fc.constant(null), fc.constant(2 ** 60), fc.boolean())

  it('POST /library/hidden: 1,000 generated bodies, no 5xx, every error a catalogue code, nothing changed', async () => {
    const { reader, a, b } = await libraryOfTwo()
    expect((await hide(reader, b.seriesId))!.status).toBe(200)
    const gone = await newSeries({ episodes: 1, free: 1 })
    await db.run(`UPDATE series SET is_published = 0 WHERE id = ?`, gone.seriesId)
    const before = [await kept(reader.id), await hiddenRows(reader.id)]
    const id = fc.oneof(scalar, fc.constantFrom(a.seriesId, b.seriesId, gone.seriesId, String(a.seriesId)))
    // a well-formed body on a published series is a real change, not bad input
    const wellFormed = (v: unknown) => {
      const o = v as Record<string, unknown>
      return (
        typeof v === 'object' &&
        v !== null &&
        Object.keys(o).length === 2 &&
        typeof o.hidden === 'boolean' &&
        (o.seriesId === a.seriesId || o.seriesId === b.seriesId)
      )
    }
    const body = fc.oneof(
      fc
        .record({ seriesId: id, hidden: scalar, userId: scalar }, { requiredKeys: [] })
        .filter((b) => !wellFormed(b))
        .map((b) => JSON.stringify(b)),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
    )
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await send(reader, 'POST', '/api/v1/library/hidden', b)
        if (res) await expectHandled(res)
      }),
      { numRuns: 1000 },
    )
    expect([await kept(reader.id), await hiddenRows(reader.id)]).toEqual(before)
  }, 120_000)

  it('POST /library/web/hide|show: 1,000 generated forms, always 303 to a library page with a catalogue code, nothing changed', async () => {
    const { reader, a } = await libraryOfTwo()
    const gone = await newSeries({ episodes: 1, free: 1 })
    await db.run(`UPDATE series SET is_published = 0 WHERE id = ?`, gone.seriesId)
    const before = [await kept(reader.id), await hiddenRows(reader.id)]
    const field = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constant(String(gone.seriesId)),
      fc.constantFrom('my', 'hidden', ''),
      fc.constant('x'.repeat(300)),
    )
    const body = fc.oneof(
      fc
        .record({ seriesId: field, from: field, hidden: field }, { requiredKeys: [] })
        .map((r) => new URLSearchParams(r as Record<string, string>).toString()),
      fc.string({ maxLength: 200 }),
      fc.constant(`seriesId=${a.seriesId}`), // no page named
    )
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.constantFrom('hide', 'show'),
        fc.constantFrom('application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'),
        async (b, action, type) => {
          const res = await request(app, `/api/v1/library/web/${action}`, {
            method: 'POST',
            headers: { origin: 'http://localhost', 'content-type': type, ...reader.headers },
            body: b,
          })
          expect(res.status).toBe(303)
          const [, code] = /^\/library\/(?:my|favorite|recent|hidden)\?error=([A-Z_]+)$/.exec(res.headers.get('location') ?? '') ?? []
          expect(isErrorCode(code ?? ''), res.headers.get('location') ?? '').toBe(true)
        },
      ),
      { numRuns: 1000 },
    )
    expect([await kept(reader.id), await hiddenRows(reader.id)]).toEqual(before)
  }, 120_000)
})
