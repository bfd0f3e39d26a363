/**
 * The reader's data export (issue 37 point 6) on real workerd + D1 + R2 + the reader's Durable Object: one request a
 * day (40 at once make one), prepared by the alarm queue's real consumer into a JSON file and a ZIP of CSVs holding the
 * account, purchases and rights, the coin ledger, the library and progress, comments and questions; the reader is
 * mailed; only they download it, for 24 hours, after which the sweep deletes the files; a lost message is queued again;
 * bad input never answers 5xx.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { env } from 'cloudflare:workers'
import { strFromU8, unzipSync } from 'fflate'
import { app, buy, db, expectError, give, newReader, newSeries, read, type Reader } from './purchase.helpers.ts'
import { expectHandled, frEdition, request } from './app.ts'
import { localQueue } from './alarm-queue.helpers.ts'
import { outboxFor } from './account.helpers.ts'
import { requestExport, sweepExports } from '../../src/features/export/export.server.ts'
import { exportKey } from '../../src/features/export/export.ts'
import { HOUR_MS } from '../../src/lib/time.ts'

const call = (reader: Pick<Reader, 'headers'> | null, method: string, path: string) =>
  request(app, `/api/v1/user/export${path}`, { method, headers: reader?.headers ?? {} })
const emailOf = async (reader: Reader) => (await db.first<{ email: string }>(`SELECT email FROM users WHERE id = ?`, reader.id))!.email

/** A reader with a purchase, a like, a favourite, a comment whose text a spreadsheet would run, and a question. */
async function busyReader() {
  const reader = await newReader()
  await give(reader.id, 'COIN', 20)
  const { seriesId, episodeIds } = await newSeries({ episodes: 2, priceRent: 2, priceBuy: 4 })
  expect((await buy(reader, { episodeIds: [episodeIds[0]], kind: 'POSSESSION' })).status).toBe(200)
  const headers = { 'content-type': 'application/json', ...reader.headers }
  expect((await request(app, `/api/v1/viewer/${episodeIds[0]}/like`, { method: 'PUT', headers })).status).toBe(200)
  expect((await request(app, `/api/v1/library/favorite/${seriesId}`, { method: 'POST', headers })).status).toBeLessThan(300)
  await db.run(
    `INSERT INTO comments (series_id, episode_id, user_id, body) VALUES (?, ?, ?, ?)`,
    seriesId,
    episodeIds[0],
    reader.id,
    '=HYPERLINK("x", "a, b")',
  )
  await db.run(
    `INSERT INTO qnas (user_id, category, title, body, created_at) VALUES (?, 'ETC', 'Ma question', 'Bonjour', ?)`,
    reader.id,
    new Date().toISOString(),
  )
  return { reader, seriesId, episodeIds }
}

describe("the reader's data export", () => {
  it('one a day: 40 requests at once make one export; the others answer LIMIT_DATA_EXPORT', async () => {
    const reader = await newReader()
    await expectError(await call(null, 'POST', ''), 401, 'NOT_LOGIN_USER')
    expect((await read(await call(reader, 'GET', ''))).data).toEqual({ export: null })
    const answers = await Promise.all(Array.from({ length: 40 }, () => call(reader, 'POST', '')))
    expect(answers.filter((r) => r.status === 202)).toHaveLength(1)
    const refused = answers.filter((r) => r.status === 429)
    expect(refused).toHaveLength(39)
    await expectError(refused[0]!, 429, 'LIMIT_DATA_EXPORT')
    expect((await db.first<{ n: number }>(`SELECT count(*) AS n FROM data_exports WHERE user_id = ?`, reader.id))!.n).toBe(1)
    const made = (await read(answers.find((r) => r.status === 202)!)).data
    expect(made).toMatchObject({ status: 'PENDING', readyAt: null, expiresAt: null })
    expect((await read(await call(reader, 'GET', ''))).data).toEqual({ export: made })
    // yesterday's export does not count against today
    await db.run(`UPDATE data_exports SET day = '2000-01-01' WHERE user_id = ?`, reader.id)
    expect((await call(reader, 'POST', '')).status).toBe(202)
  })

  it('the queue prepares the files, the reader is mailed, only they download them for 24 hours', async () => {
    const { reader, seriesId, episodeIds } = await busyReader()
    const now = new Date()
    const queue = localQueue(now)
    const made = await requestExport(db, queue.queue, reader.id, frEdition.timeZone, now)
    expect(queue.sent.map((s) => s.body)).toEqual([{ kind: 'export', exportId: made.id }])
    await queue.drain()
    const ready = (await read(await call(reader, 'GET', ''))).data.export
    expect(ready).toMatchObject({ id: made.id, status: 'READY' })
    expect(Date.parse(ready.expiresAt) - Date.parse(ready.readyAt)).toBe(24 * HOUR_MS)
    // a second delivery of the message changes nothing
    await queue.queue.send({ kind: 'export', exportId: made.id })
    await queue.drain()
    const [mail, ...more] = await outboxFor(await emailOf(reader), 'data-export')
    expect(more).toEqual([])
    expect(mail!.subject).toBe('Vos données sont prêtes')
    expect(mail!.body).toContain('/setting#export')

    const json = await call(reader, 'GET', `/${made.id}/json`)
    expect(json.status).toBe(200)
    expect(json.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"]+\.json"$/)
    expect(json.headers.get('cache-control')).toBe('private, no-store')
    const data = (await json.json()) as Record<string, Record<string, unknown>[]>
    expect(data.account).toEqual([expect.objectContaining({ id: reader.id, email: await emailOf(reader) })])
    expect(data.purchases).toEqual([
      expect.objectContaining({ episodeId: episodeIds[0], type: 'POSSESSION', coins: 4, seriesTitle: expect.any(String) }),
    ])
    expect(data.rights).toEqual([expect.objectContaining({ episodeId: episodeIds[0], kind: 'POSSESSION' })])
    expect(data.coinLedger!.map((l) => [l.kind, l.amount])).toEqual([
      ['CHARGE', 20],
      ['USE', -4],
    ])
    expect(data.likes).toEqual([expect.objectContaining({ episodeId: episodeIds[0], seriesId })])
    expect(data.favorites).toEqual([expect.objectContaining({ seriesId })])
    expect(data.comments).toEqual([expect.objectContaining({ body: '=HYPERLINK("x", "a, b")' })])
    expect(data.questions).toEqual([expect.objectContaining({ title: 'Ma question' })])

    const csv = await call(reader, 'GET', `/${made.id}/csv`)
    expect(csv.headers.get('content-type')).toBe('application/zip')
    const files = unzipSync(new Uint8Array(await csv.arrayBuffer()))
    expect(Object.keys(files)).toContain('coinLedger.csv')
    const ledger = strFromU8(files['coinLedger.csv']!).split('\r\n')
    expect(ledger[0]).toMatch(/^id,kind,type,source,amount,/)
    expect(ledger.filter((l) => l.includes(',USE,'))).toHaveLength(1)
    // a text a spreadsheet would run as a formula is written as text
    expect(strFromU8(files['comments.csv']!)).toContain(`"'=HYPERLINK(""x"", ""a, b"")"`)

    // another reader's export is not theirs; nor an unknown one
    const other = await newReader()
    await expectError(await call(other, 'GET', `/${made.id}/json`), 404, 'NOT_EXIST')
    await expectError(await call(reader, 'GET', `/${crypto.randomUUID()}/json`), 404, 'NOT_EXIST')

    // a day later the sweep deletes the files
    const later = new Date(now.getTime() + 24 * HOUR_MS + 1000)
    expect(await sweepExports(db, env.MEDIA, queue.queue, later)).toBeGreaterThanOrEqual(1)
    expect(await env.MEDIA.get(exportKey(reader.id, made.id, 'json'))).toBeNull()
    expect(await env.MEDIA.get(exportKey(reader.id, made.id, 'csv'))).toBeNull()
    await expectError(await call(reader, 'GET', `/${made.id}/json`), 404, 'NOT_EXIST')
    expect((await read(await call(reader, 'GET', ''))).data.export).toMatchObject({ status: 'EXPIRED' })
    // a month later the request itself is forgotten
    await sweepExports(db, env.MEDIA, queue.queue, new Date(now.getTime() + 31 * 24 * HOUR_MS))
    expect((await read(await call(reader, 'GET', ''))).data).toEqual({ export: null })
  })

  it('an export whose message was lost is queued again by the sweep', async () => {
    const reader = await newReader()
    const asked = new Date(Date.now() - 20 * 60_000)
    const lost = localQueue(asked)
    const made = await requestExport(db, lost.queue, reader.id, frEdition.timeZone, asked)
    const queue = localQueue(new Date())
    await sweepExports(db, env.MEDIA, queue.queue, new Date())
    expect(queue.sent.map((s) => s.body)).toContainEqual({ kind: 'export', exportId: made.id })
    await queue.drain()
    expect((await read(await call(reader, 'GET', ''))).data.export).toMatchObject({ id: made.id, status: 'READY' })
  })

  it('the /setting form asks for one; a second the same day comes back with its message; a guest signs in first', async () => {
    const reader = await newReader()
    const form = (r: Pick<Reader, 'headers'> | null) =>
      request(app, '/api/v1/user/web/export', {
        method: 'POST',
        headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded', ...(r?.headers ?? {}) },
        body: '',
        redirect: 'manual',
      })
    expect((await form(reader)).headers.get('location')).toBe('/setting#export')
    expect((await form(reader)).headers.get('location')).toBe('/setting?error=LIMIT_DATA_EXPORT')
    expect((await form(null)).headers.get('location')).toMatch(/^\/user\/login\?/)
  })

  it('never answers 5xx to 1,000 generated download paths', async () => {
    const reader = await newReader()
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), fc.string({ maxLength: 8 }), async (id, format) => {
        const res = await call(reader, 'GET', `/${encodeURIComponent(id) || 'x'}/${encodeURIComponent(format) || 'x'}`)
        await expectHandled(res)
        expect(res.status).not.toBe(200)
      }),
      { numRuns: 1000 },
    )
  }, 120_000)
})
