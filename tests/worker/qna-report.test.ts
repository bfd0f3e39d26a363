/**
 * Issue 37 point 4 on real workerd + D1: a reader reports a problem with an episode (`POST /api/v1/qna/report` and the
 * /qna/report form). The report reaches support with the episode, the problem and the reader's device, support answers
 * it like any question (the reader's mail and /qna), one report per episode a day and 10 a day (LIMIT_QNA_COUNT, one
 * conditional insert: 40 at once file one), and every refusal writes nothing.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { expectHandled } from './app.ts'
import { OPS } from './ops.helpers.ts'
import { call, communitySnapshot, db, expectError, form, frEdition, newReader, newSeries, read, type Reader } from './comment.helpers.ts'
import { DAILY_QNA_LIMIT, DAILY_REPORT_LIMIT, EPISODE_PROBLEMS, dayStart } from '../../src/features/qna/qna.ts'

const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36'
const withDevice = (reader: Reader) => ({ headers: { ...reader.headers, 'user-agent': PHONE } })
const report = (reader: Reader | null, body: unknown) => call(reader && withDevice(reader), 'POST', '/api/v1/qna/report', body)
const ops = (method: string, path: string, body?: unknown) => call(OPS, method, `/api/ops${path}`, body)
const json = (v: unknown) => {
  try {
    return JSON.stringify(v) ?? '{}'
  } catch {
    return '{}' // a BigInt
  }
}
const reportsOf = (reader: Reader) =>
  db.all<{ episode_id: number; problem: string }>(
    `SELECT episode_id, problem FROM qnas WHERE user_id = ? AND episode_id IS NOT NULL`,
    reader.id,
  )

describe('reporting a problem with an episode', () => {
  it('reaches support with the episode, the problem and the device; the answer reaches the reader like any answer', async () => {
    const reader = await newReader()
    const { seriesId, episodeIds } = await newSeries({ episodes: 3 })
    const res = await report(reader, { episodeId: episodeIds[2], problem: 'IMAGE' })
    expect(res.status).toBe(201)
    const filed = (await read(res)).data
    const series = (await db.first<{ title: string }>(`SELECT title FROM series WHERE id = ?`, seriesId))!.title
    expect(filed).toMatchObject({
      category: 'CONTENT',
      title: `Signalement : ${series} · Épisode\u00a03`, // the number label keeps its no-break space
      text: 'Image manquante ou abîmée',
      status: 'WAIT',
      report: { episodeId: episodeIds[2], no: 3, seriesId, seriesTitle: series, problem: 'IMAGE' },
    })
    // with a text of its own, the text is the reader's
    const other = (await read(await report(reader, { episodeId: episodeIds[0], problem: 'OTHER', text: ' La bulle 4 est vide. ' }))).data
    expect(other).toMatchObject({ text: 'La bulle 4 est vide.', report: { problem: 'OTHER', no: 1 } })

    // support sees it in the queue and in full, with the reader's device
    const queue = (await read(await ops('GET', '/qna'))).data.items as { id: number; report: unknown }[]
    expect(queue.find((q) => q.id === filed.id)?.report).toMatchObject({ episodeId: episodeIds[2], problem: 'IMAGE' })
    const shown = (await read(await ops('GET', `/qna/${filed.id}`))).data
    expect(shown).toMatchObject({ userId: reader.id, email: reader.email, device: PHONE, report: { no: 3, seriesTitle: series } })

    // answered like any question: COMPLETED on /qna with the report's episode, the answer mail
    expect((await ops('POST', `/qna/${filed.id}/answer`, { answer: 'Image rétablie, merci !', reason: 'report' })).status).toBe(200)
    const mine = (await read(await call(reader, 'GET', '/api/v1/qna'))).data.items as { id: number }[]
    expect(mine.find((q) => q.id === filed.id)).toMatchObject({ status: 'COMPLETED', answer: 'Image rétablie, merci !', report: { no: 3 } })
    const mails = await db.all<{ template: string }>(`SELECT template FROM outbox WHERE recipient = ? ORDER BY id`, reader.email)
    expect(mails.map((m) => m.template)).toEqual(['qna-answered'])
  })

  it('takes one report per episode a day and 10 a day, apart from the 5 questions; yesterday does not count', async () => {
    const reader = await newReader()
    const { episodeIds } = await newSeries({ episodes: DAILY_REPORT_LIMIT + 2 })
    const [first, ...others] = episodeIds as [number, ...number[]]
    // yesterday's report of the first episode
    await db.run(
      `INSERT INTO qnas (user_id, category, title, body, episode_id, problem, report_day, created_at) VALUES (?, 'CONTENT', 'hier', 'hier', ?, 'TEXT', ?, ?)`,
      reader.id,
      first,
      dayStart(frEdition.timeZone, new Date(Date.now() - 86_400_000)).toISOString(),
      new Date(Date.now() - 86_400_000).toISOString(),
    )
    expect((await report(reader, { episodeId: first, problem: 'ORDER' })).status).toBe(201)
    let before = await communitySnapshot()
    await expectError(await report(reader, { episodeId: first, problem: 'TEXT', text: 'Autre chose' }), 429, 'LIMIT_QNA_COUNT')
    expect(await communitySnapshot()).toEqual(before)
    for (const id of others.slice(0, DAILY_REPORT_LIMIT - 1))
      expect((await report(reader, { episodeId: id, problem: 'TEXT' })).status).toBe(201)
    before = await communitySnapshot()
    await expectError(await report(reader, { episodeId: others.at(-1), problem: 'TEXT' }), 429, 'LIMIT_QNA_COUNT')
    expect(await communitySnapshot()).toEqual(before)
    expect(await reportsOf(reader)).toHaveLength(DAILY_REPORT_LIMIT + 1)
    // the day's questions are still all there
    for (let i = 0; i < DAILY_QNA_LIMIT; i++)
      expect((await call(reader, 'POST', '/api/v1/qna', { category: 'ETC', title: `q${i}`, text: 'texte' })).status).toBe(201)
  })

  it('40 reports of one episode at once file one; 40 of 40 episodes at once file 10', async () => {
    const reader = await newReader()
    const { episodeIds } = await newSeries({ episodes: 40 })
    const same = await Promise.all(Array.from({ length: 40 }, () => report(reader, { episodeId: episodeIds[0], problem: 'IMAGE' })))
    expect(same.map((r) => r.status).sort()).toEqual([201, ...Array<number>(39).fill(429)])
    expect(await reportsOf(reader)).toHaveLength(1)
    const other = await newReader()
    const many = await Promise.all(episodeIds.map((id) => report(other, { episodeId: id, problem: 'TEXT' })))
    expect(many.filter((r) => r.status === 201)).toHaveLength(DAILY_REPORT_LIMIT)
    expect(many.filter((r) => r.status === 429)).toHaveLength(40 - DAILY_REPORT_LIMIT)
    expect(await reportsOf(other)).toHaveLength(DAILY_REPORT_LIMIT)
  })

  it('refuses guests, unknown or unpublished episodes, an adult series to a minor, OTHER without a text: nothing written', async () => {
    const reader = await newReader({ adult: false })
    const { episodeIds } = await newSeries({ episodes: 1 })
    const adult = await newSeries({ episodes: 1, adult: true })
    const later = await db.first<{ id: number }>(
      `INSERT INTO episodes (series_id, no, title, is_free, price_rent, price_buy, published_at)
       SELECT series_id, 2, 'Bientôt', 1, 2, 4, '2999-01-01T00:00:00.000Z' FROM episodes WHERE id = ? RETURNING id`,
      episodeIds[0],
    )
    const before = await communitySnapshot()
    await expectError(await report(null, { episodeId: episodeIds[0], problem: 'IMAGE' }), 401, 'NOT_LOGIN_USER')
    await expectError(await report(reader, { episodeId: 999_999_999, problem: 'IMAGE' }), 404, 'NOT_FOUND_EPISODE')
    await expectError(await report(reader, { episodeId: later!.id, problem: 'IMAGE' }), 404, 'NOT_FOUND_EPISODE')
    await expectError(await report(reader, { episodeId: adult.episodeIds[0], problem: 'IMAGE' }), 403, 'ADULT_ONLY_CONTENTS')
    for (const body of [
      { episodeId: episodeIds[0], problem: 'OTHER' },
      { episodeId: episodeIds[0], problem: 'OTHER', text: ' \u0000 ' },
      { episodeId: episodeIds[0], problem: 'SPAM' },
      { episodeId: episodeIds[0], problem: 'IMAGE', text: 'x'.repeat(2001) },
      { episodeId: String(episodeIds[0]), problem: 'IMAGE' },
      { episodeId: -1, problem: 'IMAGE' },
      {},
    ])
      await expectError(await report(reader, body), 400, 'INVALID_PARAMETER')
    expect(await communitySnapshot()).toEqual(before)
    // an adult reader may report the adult series
    expect((await report(await newReader({ adult: true }), { episodeId: adult.episodeIds[0], problem: 'OFFENSIVE' })).status).toBe(201)
  })

  it('the /qna/report form files the report and goes to /qna; refusals come back to the form with what was typed', async () => {
    const reader = await newReader()
    const { episodeIds } = await newSeries({ episodes: 1 })
    const id = String(episodeIds[0])
    const page = `/qna/report?episodeId=${id}`
    const guest = await form(null, '/api/v1/qna/web/report', { episodeId: id, problem: 'IMAGE', text: '' })
    expect(guest.headers.get('location')).toMatch(/^\/user\/login\?/)
    expect(decodeURIComponent(guest.headers.get('location')!)).toContain(page)
    const missing = await form(reader, '/api/v1/qna/web/report', { episodeId: id, problem: 'OTHER', text: '' })
    expect(missing.headers.get('location')).toBe(`${page}&error=INVALID_PARAMETER`)
    const flash = missing.headers.getSetCookie().find((c) => c.startsWith('form-flash='))!
    expect(decodeURIComponent(flash)).toMatch(/"field":"text".*"values":\{"problem":"OTHER"\}/)
    const res = await form(reader, '/api/v1/qna/web/report', { episodeId: id, problem: 'ORDER', text: '' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toMatch(/^\/qna\?sent=\d+#q\d+$/)
    expect(await reportsOf(reader)).toEqual([{ episode_id: episodeIds[0], problem: 'ORDER' }])
    const again = await form(reader, '/api/v1/qna/web/report', { episodeId: id, problem: 'IMAGE', text: '' })
    expect(again.headers.get('location')).toBe(`${page}&error=LIMIT_QNA_COUNT`)
    const junk = await form(reader, '/api/v1/qna/web/report', { episodeId: '../x', problem: 'IMAGE', text: '' })
    expect(junk.headers.get('location')).toBe('/qna/report?episodeId=&error=INVALID_PARAMETER')
    expect(await reportsOf(reader)).toHaveLength(1)
  })

  it('never answers 5xx nor writes to 1,000 generated bad bodies and forms', async () => {
    const reader = await newReader()
    const { episodeIds } = await newSeries({ episodes: 1 })
    const before = await communitySnapshot()
    const bad = fc.record(
      {
        episodeId: fc.oneof(fc.anything(), fc.constant(episodeIds[0])),
        problem: fc.oneof(fc.anything(), fc.constantFrom('IMAGE', 'OTHER')),
        text: fc.oneof(fc.anything(), fc.constant(''), fc.string({ minLength: 2001, maxLength: 2100 })),
      },
      { requiredKeys: [] },
    )
    // valid bodies are left out: one naming any existing episode (generated ids are small: other tests' episodes exist)
    // with a known problem and an acceptable text would file a report
    const invalid = bad.filter((b) => {
      const idOk = typeof b.episodeId === 'number' && Number.isSafeInteger(b.episodeId) && b.episodeId > 0
      const problemOk = (EPISODE_PROBLEMS as readonly unknown[]).includes(b.problem)
      const textOk =
        b.text === undefined || (typeof b.text === 'string' && b.text.length <= 2000 && (b.problem !== 'OTHER' || b.text.trim() !== ''))
      return !(idOk && problemOk && textOk)
    })
    await fc.assert(
      fc.asyncProperty(fc.oneof(invalid.map(json), fc.string()), async (body) => {
        await expectHandled(await report(reader, body))
      }),
      { numRuns: 1000 },
    )
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), fc.string({ maxLength: 40 }), async (e, p, t) => {
        const res = await form(reader, '/api/v1/qna/web/report', { episodeId: e, problem: p, text: t })
        expect(res.status).toBe(303)
        expect(res.headers.get('location')).toMatch(/^\/qna\/report\?episodeId=\d*&error=[A-Z_]+$/)
      }),
      { numRuns: 200 },
    )
    expect(await communitySnapshot()).toEqual(before)
  }, 180_000)
})
