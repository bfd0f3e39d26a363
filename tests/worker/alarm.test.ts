/**
 * Issue 13 point 1, the alarm centre: alarms written in the event's own batch (a support answer, a reply to a
 * comment), by the cron's sweeps (a favourite series publishes, a rental ends within 24 h, coins expire within 7
 * days), once per reader and event, never for a hidden series; kept 30 days; `/api/v1/alarm` and its forms read
 * and mark only the reader's own alarms.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { call, db, expectError, form, frEdition, newReader, newSeries, read, type Reader } from './comment.helpers.ts'
import { expectHandled, frMessages } from './app.ts'
import { answerQna } from '../../src/features/qna/qna.server.ts'
import { runFanout, sweepAlarms } from '../../src/features/alarm/alarm.server.ts'
import { alarmReach, alarmsIn, execInReader, giveAlarms, readerObject, testAlarm } from './reader.helpers.ts'
import { localQueue } from './alarm-queue.helpers.ts'
import { readerRows } from './reader-rows.ts'
import { purgeExpired } from '../../src/features/retention/retention.server.ts'
import { createTranslator } from '../../src/lib/i18n/i18n.ts'
import { DAY_MS, HOUR_MS, isoAfter } from '../../src/lib/time.ts'

const t = createTranslator(frEdition, frMessages)
const alarmsOf = async (userId: number) =>
  (await alarmsIn(userId)).map(({ kind, title, link, dedupKey }) => ({ kind, title, link, dedupKey }))
const list = async (reader: Reader, query = '') => (await read(await call(reader, 'GET', `/api/v1/alarm${query}`))).data
const count = async (reader: Reader) => (await read(await call(reader, 'GET', '/api/v1/alarm/count'))).data.count as number
const far = { deadline: Number.MAX_SAFE_INTEGER, clock: () => 0 }
/** For the sweeps that write alarms themselves; what they queue (pushes) is not looked at here. */
const { queue } = localQueue(new Date())

/** A series whose episode 1 is published at `publishedAt`, favourited by `readers`. */
async function favouriteSeries(publishedAt: string, readers: Reader[]) {
  const s = await newSeries({ episodes: 1 })
  await db.run(`UPDATE episodes SET published_at = ? WHERE id = ?`, publishedAt, s.episodeIds[0])
  for (const r of readers) await db.run(`INSERT INTO favorites (user_id, series_id) VALUES (?, ?)`, r.id, s.seriesId)
  return s
}

describe('alarms written with their event', () => {
  it('a support answer gives the asker one alarm, even when answered twice', async () => {
    const reader = await newReader()
    const other = await newReader()
    const q = (
      await read(await call(reader, 'POST', '/api/v1/qna', { category: 'PAYMENT', title: 'Paiement double', text: 'Débité deux fois.' }))
    ).data
    expect(await count(reader)).toBe(0)
    await answerQna(db, q.id, 'Remboursé.', { t, siteUrl: frEdition.siteUrl })
    await expect(answerQna(db, q.id, 'encore', { t, siteUrl: frEdition.siteUrl })).rejects.toMatchObject({ code: 'NOT_EXIST' })
    expect(await alarmsOf(reader.id)).toEqual([{ kind: 'QNA', title: 'alarm.text.qnaAnswered', link: '/qna', dedupKey: `QNA:${q.id}` }])
    const page = await list(reader)
    expect(page.items).toHaveLength(1)
    expect(page.items[0]).toMatchObject({
      kind: 'QNA',
      text: 'Le support a répondu à votre question « Paiement double ».',
      link: '/qna',
      read: false,
    })
    expect(await count(reader)).toBe(1)
    expect((await list(other)).items).toEqual([])
  })

  it('an answer whose alarm could not be delivered at once reaches its reader with the next sweep, once', async () => {
    const reader = await newReader()
    const q = (await read(await call(reader, 'POST', '/api/v1/qna', { category: 'PAYMENT', title: 'Reçu', text: 'Où est mon reçu ?' })))
      .data
    // answered on the shared side, its reader's object not reached (the answer's request went on without the alarm)
    await db.run(`UPDATE qnas SET status = 'COMPLETED', answer = 'Le voici.', answered_at = ? WHERE id = ?`, new Date().toISOString(), q.id)
    expect(await alarmsOf(reader.id)).toEqual([])
    await sweepAlarms(db, queue, new Date(), far)
    await sweepAlarms(db, queue, new Date(), far)
    expect(await alarmsOf(reader.id)).toEqual([{ kind: 'QNA', title: 'alarm.text.qnaAnswered', link: '/qna', dedupKey: `QNA:${q.id}` }])
    expect(await db.all(`SELECT dedup_key FROM alarm_deliveries WHERE user_id = ?`, reader.id)).toEqual([{ dedup_key: `QNA:${q.id}` }])
  })

  it('a reply to a comment alarms its author once per reply, never for replying to oneself', async () => {
    const author = await newReader()
    const replier = await newReader()
    const s = await newSeries({ episodes: 1 })
    const c = (await read(await call(author, 'POST', '/api/v1/comment', { contentsId: s.seriesId, text: 'Super série' }))).data
    expect((await call(author, 'POST', '/api/v1/comment', { contentsId: s.seriesId, parentId: c.id, text: 'merci' })).status).toBe(201)
    expect(await alarmsOf(author.id)).toEqual([])
    const r1 = (await read(await call(replier, 'POST', '/api/v1/comment', { contentsId: s.seriesId, parentId: c.id, text: 'oui !' }))).data
    const r2 = (await read(await call(replier, 'POST', '/api/v1/comment', { contentsId: s.seriesId, parentId: c.id, text: 'encore' }))).data
    expect((await alarmsOf(author.id)).map((a) => a.dedupKey)).toEqual([`REPLY:${r1.id}`, `REPLY:${r2.id}`])
    expect((await alarmsOf(author.id))[0]).toMatchObject({ kind: 'COMMENT', link: `/detail/${s.seriesId}` })
    expect(await alarmsOf(replier.id)).toEqual([])
  })
})

describe('alarms written by the cron', () => {
  it('announces an episode at its published_at to the readers who favourited the series and did not hide it, once', async () => {
    const fan = await newReader()
    const hider = await newReader()
    const stranger = await newReader()
    const at = '2030-03-01T12:00:00.000Z'
    const s = await favouriteSeries(at, [fan, hider])
    await db.run(`INSERT INTO hidden_series (user_id, series_id) VALUES (?, ?)`, hider.id, s.seriesId)
    const q = localQueue(new Date(at))
    await sweepAlarms(db, q.queue, new Date(isoAfter(at, -1)), far)
    await q.drain()
    expect(await alarmsOf(fan.id)).toEqual([])
    await sweepAlarms(db, q.queue, new Date(isoAfter(at, 1)), far)
    await sweepAlarms(db, q.queue, new Date(isoAfter(at, 10 * 60_000)), far)
    await q.drain()
    // the same event processed again, as a queue would redeliver it
    await runFanout(db, q.queue, { kind: 'episode', episodeId: s.episodeIds[0]!, after: 0 })
    expect(await alarmsOf(fan.id)).toEqual([
      { kind: 'EPISODE', title: 'alarm.text.episodePublished', link: `/viewer/${s.episodeIds[0]}`, dedupKey: `EPISODE:${s.episodeIds[0]}` },
    ])
    expect(await alarmsOf(hider.id)).toEqual([])
    expect(await alarmsOf(stranger.id)).toEqual([])
    const item = (await list(fan)).items[0]
    expect(item.text).toMatch(/ : l’épisode\s1 est paru\.$/)
  })

  it('warns of a rental within 24 h of its end and of coins within 7 days of expiry, once, and nothing else', async () => {
    const reader = await newReader()
    const now = new Date('2030-05-01T00:00:00.000Z')
    const s = await newSeries({ episodes: 2 })
    const ends = isoAfter(now, 30 * HOUR_MS)
    await readerRows.run(
      reader.id,
      `INSERT INTO ownerships (user_id, series_id, episode_id, kind, expires_at) VALUES (?1, ?2, ?3, 'RENT', ?4), (?1, ?2, ?5, 'POSSESSION', NULL)`,
      reader.id,
      s.seriesId,
      s.episodeIds[0],
      ends,
      s.episodeIds[1],
    )
    const lot = (type: string, remaining: number, expires: string) =>
      readerRows.first<{ id: number }>(
        reader.id,
        `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source) VALUES (?, ?, 10, ?, ?, 'REWARD') RETURNING id`,
        reader.id,
        type,
        remaining,
        expires,
      )
    const bonus = await lot('BONUS', 7, isoAfter(now, 8 * DAY_MS))
    await lot('MILEAGE', 5, isoAfter(now, 2 * DAY_MS))
    await lot('COIN', 0, isoAfter(now, 2 * DAY_MS))
    await readerObject(reader.id).wake(reader.id, now.toISOString())
    expect(await alarmsOf(reader.id)).toEqual([])
    const later = new Date(now.getTime() + 7 * HOUR_MS) // rental ends in 23 h
    await readerObject(reader.id).wake(reader.id, later.toISOString())
    expect((await alarmsOf(reader.id)).map((a) => a.kind)).toEqual(['EPISODE'])
    const dayAfter = new Date(now.getTime() + DAY_MS + HOUR_MS) // bonus expires in < 7 days
    await readerObject(reader.id).wake(reader.id, dayAfter.toISOString())
    await readerObject(reader.id).wake(reader.id, dayAfter.toISOString())
    expect(await alarmsOf(reader.id)).toEqual([
      {
        kind: 'EPISODE',
        title: 'alarm.text.rentalEnding',
        link: `/viewer/${s.episodeIds[0]}`,
        dedupKey: expect.stringMatching(/^RENT:\d+:/),
      },
      { kind: 'COIN', title: 'alarm.text.coinsExpiring', link: '/history/charge', dedupKey: `LOT:${bonus!.id}` },
    ])
    const texts = (await list(reader)).items.map((a: { text: string }) => a.text)
    expect(texts).toEqual(['Pièces qui expirent le 09.05.2030 : 7.', expect.stringMatching(/\(épisode\s1\) se termine le 02\.05\.2030\.$/)])
  })

  it('tells a reader when their next wait-until-free ticket of a series is ready, once', async () => {
    const reader = await newReader()
    const s = await newSeries({ episodes: 2 })
    await db.run(`UPDATE series SET wuf_hours = 24 WHERE id = ?`, s.seriesId)
    const usedAt = '2030-06-01T10:00:00.000Z'
    const ticket = await readerRows.first<{ id: number }>(
      reader.id,
      // as a use writes it: with when the series' next ticket is ready (its wuf_hours later)
      `INSERT INTO wuf_tickets (user_id, series_id, available_at, used_at, used_episode_id, ready_at) VALUES (?, ?, 'FIRST', ?, ?, ?) RETURNING id`,
      reader.id,
      s.seriesId,
      usedAt,
      s.episodeIds[0],
      isoAfter(usedAt, 24 * HOUR_MS),
    )
    await readerObject(reader.id).wake(reader.id, new Date(isoAfter(usedAt, 24 * HOUR_MS - 1)).toISOString())
    expect(await alarmsOf(reader.id)).toEqual([])
    await readerObject(reader.id).wake(reader.id, new Date(isoAfter(usedAt, 24 * HOUR_MS)).toISOString())
    await readerObject(reader.id).wake(reader.id, new Date(isoAfter(usedAt, 25 * HOUR_MS)).toISOString())
    expect(await alarmsOf(reader.id)).toEqual([
      { kind: 'EPISODE', title: 'alarm.text.ticketReady', link: `/detail/${s.seriesId}`, dedupKey: `WUF:${ticket!.id}` },
    ])
  })

  it('fans one episode out to readers in user id order, from where a message resumes, and 40 concurrent runs of it still give one alarm per reader', async () => {
    // (a message's batches, FANOUT_SIZE: tests/worker/alarm-queue.test.ts)
    const fans = await Promise.all(Array.from({ length: 5 }, () => newReader()))
    const s = await favouriteSeries('2030-08-01T00:00:00.000Z', fans)
    const episodeId = s.episodeIds[0]!
    const readers = fans.map((f) => f.id).sort((a, b) => a - b)
    expect(await alarmReach(readers, `EPISODE:${episodeId}`)).toEqual({ n: 0, readers: 0 })
    // a message resuming after the second reader writes the three readers after it, none before
    expect(await runFanout(db, queue, { kind: 'episode', episodeId, after: readers[1]! })).toBe(3)
    expect(await alarmReach(readers.slice(0, 2), `EPISODE:${episodeId}`)).toEqual({ n: 0, readers: 0 })
    expect(await alarmReach(readers.slice(2), `EPISODE:${episodeId}`)).toEqual({ n: 3, readers: 3 })
    await Promise.all(Array.from({ length: 40 }, () => runFanout(db, queue, { kind: 'episode', episodeId, after: 0 })))
    expect(await alarmReach(readers, `EPISODE:${episodeId}`)).toEqual({ n: 5, readers: 5 })
  })

  it('keeps alarms 30 days in the reader’s object, and their delivery records as long on the shared side', async () => {
    const reader = await newReader()
    const now = Date.now()
    expect(await giveAlarms(reader.id, [testAlarm('old', isoAfter(new Date(now), -30 * DAY_MS - 60_000))])).toHaveLength(1)
    await giveAlarms(reader.id, [testAlarm('young', isoAfter(new Date(now), -30 * DAY_MS + 60_000))])
    expect((await list(reader)).items.map((a: { text: string }) => a.text.match(/« (\w+) »/)![1])).toEqual(['young'])
    expect(await count(reader)).toBe(1)
    await giveAlarms(reader.id, []) // the next delivery drops what is past its month
    expect((await alarmsOf(reader.id)).map((a) => a.dedupKey)).toEqual(['young'])

    const at = new Date('2030-07-01T00:00:00.000Z')
    const record = (key: string, createdAt: string) =>
      db.run(`INSERT INTO alarm_deliveries (user_id, dedup_key, created_at) VALUES (?, ?, ?)`, reader.id, key, createdAt)
    await record('old', isoAfter(at, -30 * DAY_MS))
    await record('young', isoAfter(at, -30 * DAY_MS + 1))
    await purgeExpired(db, at, far)
    expect(await db.all(`SELECT dedup_key FROM alarm_deliveries WHERE user_id = ?`, reader.id)).toEqual([{ dedup_key: 'young' }])
  })
})

describe('/api/v1/alarm', () => {
  const seed = (reader: Reader, n: number) =>
    giveAlarms(
      reader.id,
      Array.from({ length: n }, (_, i) => testAlarm(`Q${i + 1}`)),
    )

  it('lists by when each alarm happened, not by when it was written (issue 35 point 9), across pages', async () => {
    const reader = await newReader()
    // a fan-out writes an alarm dated by its event after the alarms of later events (ids 1, 2, 3 out of time order)
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString()
    const times = [ago(3 * HOUR_MS), ago(6 * HOUR_MS), ago(2 * HOUR_MS)]
    for (const [i, at] of times.entries()) await giveAlarms(reader.id, [testAlarm(`T${i}`, at)])
    await seed(reader, 29) // now: newer than the three
    const first = await list(reader)
    expect(first.items.slice(29).map((a: { createdAt: string }) => a.createdAt)).toEqual([times[2]])
    const second = await list(reader, `?cursor=${first.nextCursor}`)
    expect(second.items.map((a: { createdAt: string }) => a.createdAt)).toEqual([times[0], times[1]])
  })

  it('lists newest first by pages of 30, counts unread, marks one and all read; another account can neither read nor mark', async () => {
    const reader = await newReader()
    const other = await newReader()
    await seed(reader, 35)
    const first = await list(reader)
    expect(first.items).toHaveLength(30)
    expect(first.items[0].text).toContain('« Q35 »')
    const second = await list(reader, `?cursor=${first.nextCursor}`)
    expect(second.items.map((a: { text: string }) => a.text.match(/Q\d+/)![0])).toEqual(['Q5', 'Q4', 'Q3', 'Q2', 'Q1'])
    expect(second.nextCursor).toBeNull()
    expect(await count(reader)).toBe(35)

    const id = first.items[0].id as number
    await expectError(await call(other, 'POST', '/api/v1/alarm/read', { id }), 404, 'NOT_EXIST')
    expect((await read(await call(other, 'POST', '/api/v1/alarm/read-all'))).data.count).toBe(0)
    expect((await list(other)).items).toEqual([])
    expect(await count(reader)).toBe(35)

    expect((await read(await call(reader, 'POST', '/api/v1/alarm/read', { id }))).data).toEqual({ id, link: '/qna' })
    expect(await count(reader)).toBe(34)
    expect((await list(reader)).items[0].read).toBe(true)
    expect((await read(await call(reader, 'POST', '/api/v1/alarm/read-all'))).data.count).toBe(34)
    expect(await count(reader)).toBe(0)
    await expectError(await call(null, 'GET', '/api/v1/alarm/count'), 401, 'NOT_LOGIN_USER')
    const guestPage = await call(null, 'GET', '/alarm')
    expect([guestPage.status, new URL(guestPage.headers.get('location') ?? '', 'http://localhost').pathname]).toEqual([302, '/user/login'])
  })

  it('40 concurrent marks of one alarm read leave it read once and the count exact', async () => {
    const reader = await newReader()
    await seed(reader, 3)
    const [a] = (await list(reader)).items
    const answers = await Promise.all(Array.from({ length: 40 }, () => call(reader, 'POST', '/api/v1/alarm/read', { id: a.id })))
    expect(answers.map((r) => r.status)).toEqual(Array(40).fill(200))
    expect(await count(reader)).toBe(2)
    const readAt = await execInReader(reader.id, `SELECT DISTINCT read_at FROM alarms WHERE id = ?`, a.id)
    expect(readAt).toHaveLength(1)
  })

  it('the /alarm forms open an alarm (read, then its page) and mark all read; not another account’s', async () => {
    const reader = await newReader()
    const other = await newReader()
    await seed(reader, 2)
    const [a] = (await list(reader)).items
    const refused = await form(other, '/api/v1/alarm/web/open', { id: String(a.id) })
    expect(refused.headers.get('location')).toBe('/alarm?error=NOT_EXIST')
    expect(await count(reader)).toBe(2)
    const opened = await form(reader, '/api/v1/alarm/web/open', { id: String(a.id) })
    expect([opened.status, opened.headers.get('location')]).toEqual([303, '/qna'])
    expect(await count(reader)).toBe(1)
    const all = await form(reader, '/api/v1/alarm/web/read-all', {})
    expect([all.status, all.headers.get('location')]).toEqual([303, '/alarm?read=all'])
    expect(await count(reader)).toBe(0)
    expect((await form(reader, '/api/v1/alarm/web/read-all', {}, 'https://evil.example')).status).toBe(403)
  })

  it('never answers 5xx nor changes anything for 1,000 generated bad bodies and queries', async () => {
    // the reader has no alarm; another reader has three, with the small ids a generated body often names (ids are the
    // reader's object's own): none of them may be reached
    const reader = await newReader()
    const other = await newReader()
    await seed(other, 3)
    const snapshot = async () => [await alarmsIn(reader.id), await alarmsIn(other.id)]
    const before = await snapshot()
    expect(before.flat().map((a) => a.id)).toEqual([1, 2, 3])
    const bad = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.record({ id: fc.anything() }, { requiredKeys: [] }).map((v) => {
        try {
          return JSON.stringify(v)
        } catch {
          return '{}'
        }
      }),
    )
    await fc.assert(
      fc.asyncProperty(bad, fc.string({ maxLength: 30 }), async (body, cursor) => {
        const res = await call(reader, 'POST', '/api/v1/alarm/read', body)
        // a generated body naming an id of another reader's alarm is refused as NOT_EXIST
        expect(res.status).toBeGreaterThanOrEqual(400)
        await expectHandled(res)
        await expectHandled(await call(reader, 'GET', `/api/v1/alarm?${new URLSearchParams({ cursor })}`))
        expect((await form(reader, '/api/v1/alarm/web/open', { id: cursor })).status).toBeLessThan(500)
      }),
      { numRuns: 1000 },
    )
    expect(await snapshot()).toEqual(before)
  }, 120_000)
})
