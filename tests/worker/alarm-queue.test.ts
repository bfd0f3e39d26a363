/**
 * Issue 13 point 3: alarms fan out through the queue. The cron or the operator's publish claims an episode once and
 * queues one message; the consumer writes a message's batches of alarms (FANOUT here) and queues the next message and the pushes.
 * A message delivered twice writes no second alarm and sends no second push; a push no push service took is retried
 * by the queue, and one that keeps failing ends in the dead-letter queue. The operator's notice goes the same way.
 */
import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { expectHandled, read, request } from './app.ts'
import { app, call, db, newReader, newSeries, type Reader } from './comment.helpers.ts'
import { FANOUT, localQueue } from './alarm-queue.helpers.ts'
import { readerRows } from './reader-rows.ts'
import type { ReceivedPush } from '../../scripts/push-service.ts'
import { ALARM_KEEP_MS } from '../../src/features/alarm/alarm.ts'
import { purgeExpired } from '../../src/features/retention/retention.server.ts'
import { sweepAlarms } from '../../src/features/alarm/alarm.server.ts'
import { isoAfter } from '../../src/lib/time.ts'
import { alarmReach, alarmsIn, readerObject } from './reader.helpers.ts'
import { runInDurableObject } from 'cloudflare:test'
import { tallyOf } from '../../src/features/catalogue/tally.server.ts'

const far = { deadline: Number.MAX_SAFE_INTEGER, clock: () => 0 }
const noon = new Date('2031-03-03T11:00:00.000Z') // 12:00 in Paris (the fr edition)
const base = env.PUSH_SERVICE_BASE!

/** `n` accounts made in one statement (the fan-out tests need more than a batch of readers). */
async function manyUsers(n: number): Promise<number[]> {
  const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`
  const rows = await db.all<{ id: number }>(
    `INSERT INTO users (email, is_adult) SELECT 'fan-' || ? || '-' || value || '@example.com', 1 FROM json_each(?) RETURNING id`,
    tag,
    JSON.stringify(Array.from({ length: n }, (_, i) => i)),
  )
  return rows.map((r) => r.id).sort((a, b) => a - b)
}

/** A series whose episode 1 is published at `publishedAt` and not announced yet, favourited by `userIds`. */
async function favouriteSeries(publishedAt: string, userIds: number[]) {
  const s = await newSeries({ episodes: 1 })
  await db.run(`UPDATE episodes SET published_at = ?, announced_at = NULL WHERE id = ?`, publishedAt, s.episodeIds[0])
  await db.run(`INSERT INTO favorites (user_id, series_id) SELECT value, ? FROM json_each(?)`, s.seriesId, JSON.stringify(userIds))
  return { seriesId: s.seriesId, episodeId: s.episodeIds[0]! }
}

/** The alarm with dedup key `key` in the objects of `readers`: how many, held by how many readers. */
const alarmCount = alarmReach
/** The reader's alarm with dedup key `key`, as their object holds it. */
const alarmOf = async (userId: number, key: string) => (await alarmsIn(userId)).find((a) => a.dedupKey === key)

type Sub = { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } }
const received = async (endpoint: string): Promise<ReceivedPush[]> =>
  ((await (await fetch(`${base}/__received`)).json()) as ReceivedPush[]).filter((r) => `https://fcm.googleapis.com${r.path}` === endpoint)

/** A reader with push on (night push off unless told) and one browser subscribed at the local push service's `path`. */
async function subscribed(path = 'push', prefs: Record<string, boolean> = {}): Promise<{ reader: Reader; sub: Sub }> {
  const reader = await newReader()
  const settings = { isAgreePush: true, isAgreePushNight: false, isAgreePushFreetime: true, isAgreePushContents: true, ...prefs }
  expect((await call(reader, 'PUT', '/api/v1/app/push', settings)).status).toBe(200)
  const sub = (await (await fetch(`${base}/__subscribe?path=${path}`)).json()) as Sub
  expect((await call(reader, 'POST', '/api/v1/app/push/subscription', sub)).status).toBe(200)
  return { reader, sub }
}

const opsGet = (path: string) => request(app, `/api/ops${path}`, { headers: { authorization: 'Bearer test-ops-token' } })
const ops = (path: string, body?: unknown) =>
  request(app, `/api/ops${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-ops-token', 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })

describe('the episode fan-out', () => {
  it("is claimed once by the cron at published_at and written a message's batches of readers per message", async () => {
    const perMessage = FANOUT.batches * FANOUT.batch
    const fans = await manyUsers(2 * perMessage + 1)
    const at = '2031-01-10T09:00:00.000Z'
    const { seriesId, episodeId } = await favouriteSeries(at, fans)
    await db.run(`INSERT INTO hidden_series (user_id, series_id) VALUES (?, ?)`, fans[7], seriesId)
    const q = localQueue(new Date(at))
    await sweepAlarms(db, q.queue, new Date(isoAfter(at, -1)), far)
    expect(q.sent).toEqual([])
    await sweepAlarms(db, q.queue, new Date(isoAfter(at, 1000)), far)
    await sweepAlarms(db, q.queue, new Date(isoAfter(at, 10 * 60_000)), far) // the next run: already claimed
    expect(q.sent.map((m) => m.body)).toEqual([{ kind: 'episode', episodeId, after: 0 }])
    expect(await q.drain()).toBe(3)
    // two full messages written, then the last reader: each full message queued the next one after its last reader
    // (fans[7] hid the series, so the first message's last reader is one further)
    expect(q.sent.filter((m) => m.body.kind === 'episode').map((m) => m.body)).toEqual([
      { kind: 'episode', episodeId, after: 0 },
      { kind: 'episode', episodeId, after: fans[perMessage] },
      { kind: 'episode', episodeId, after: fans[2 * perMessage] },
    ])
    expect(await alarmCount(fans, `EPISODE:${episodeId}`)).toEqual({ n: fans.length - 1, readers: fans.length - 1 })
    expect(await alarmOf(fans[7]!, `EPISODE:${episodeId}`)).toBeUndefined()
  }, 60_000) // a hundred readers' objects, each made on its first alarm

  it('writes no second alarm and sends no second push when a message is delivered twice', async () => {
    const { reader, sub } = await subscribed()
    const others = await manyUsers(3)
    const { episodeId } = await favouriteSeries('2031-01-11T09:00:00.000Z', [reader.id, ...others])
    const q = localQueue(noon)
    const job = { kind: 'episode', episodeId, after: 0 } as const
    await q.queue.sendBatch([{ body: job }, { body: job }]) // the same message twice in one batch
    await q.drain()
    await q.queue.send(job) // and once more later
    await q.drain()
    expect(await alarmCount([reader.id, ...others], `EPISODE:${episodeId}`)).toEqual({ n: 4, readers: 4 })
    // only the subscribed reader's alarm has a push job; the duplicates found it claimed
    expect(q.sent.filter((m) => m.body.kind === 'push')).toHaveLength(1)
    const alarm = await alarmOf(reader.id, `EPISODE:${episodeId}`)
    const push = { kind: 'push', alarmId: alarm!.id, readerId: reader.id } as const
    await q.queue.sendBatch([{ body: push }, { body: push }])
    await q.drain()
    const pushes = await received(sub.endpoint)
    expect(pushes).toHaveLength(1)
    expect(pushes[0]!.payload).toMatchObject({ kind: 'contents', title: 'Bomtoon', url: `/viewer/${episodeId}` })
    expect((pushes[0]!.payload as { body: string }).body).toMatch(/ : l’épisode\s1 est paru\.$/)
  })

  it('is queued by the operator in one request, once, even for 40 publishes at once', async () => {
    const spy = vi.spyOn(env.ALARMS, 'send')
    try {
      const fans = await manyUsers(3)
      const { episodeId } = await favouriteSeries('2099-01-01T00:00:00.000Z', fans) // scheduled far ahead
      const answers = await Promise.all(Array.from({ length: 40 }, () => ops(`/episodes/${episodeId}/publish`)))
      const bodies = await Promise.all(answers.map(read))
      expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200))
      expect(bodies.filter((b) => b.data.announced)).toHaveLength(1)
      expect(spy.mock.calls.map((c) => c[0])).toEqual([{ kind: 'episode', episodeId, after: 0 }])
      const row = await db.first<{ publishedAt: string }>(`SELECT published_at AS publishedAt FROM episodes WHERE id = ?`, episodeId)
      expect(Date.parse(row!.publishedAt)).toBeLessThanOrEqual(Date.now()) // published now, not in 2099
      const q = localQueue(new Date())
      await q.queue.send(spy.mock.calls[0]![0])
      await q.drain()
      expect(await alarmCount(fans, `EPISODE:${episodeId}`)).toEqual({ n: 3, readers: 3 })
      expect((await ops('/episodes/999999999/publish')).status).toBe(404)
    } finally {
      spy.mockRestore()
    }
  })
})

describe('pushes through the queue', () => {
  it('honours the settings: contents off sends nothing, at night it waits until 08:00 in the edition', async () => {
    const { reader: day, sub: daySub } = await subscribed()
    const { reader: off, sub: offSub } = await subscribed('push', { isAgreePushContents: false })
    const { reader: owl, sub: owlSub } = await subscribed('push', { isAgreePushNight: true })
    const night = new Date('2031-03-03T22:30:00.000Z') // 23:30 in Paris
    const { episodeId } = await favouriteSeries(night.toISOString(), [day.id, off.id, owl.id])
    const q = localQueue(night)
    await q.queue.send({ kind: 'episode', episodeId, after: 0 })
    await q.drain()
    expect(await received(owlSub.endpoint)).toHaveLength(1)
    expect(await received(daySub.endpoint)).toHaveLength(0)
    const held = q.sent.filter((m) => m.body.kind === 'push' && m.delaySeconds > 0)
    expect(held).toHaveLength(1)
    // 23:30 → 08:00 in Paris is 8 h 30 min
    expect(held[0]!.delaySeconds).toBe(8.5 * 3600)
    await q.drain(new Date('2031-03-04T07:00:00.000Z'))
    expect(await received(daySub.endpoint)).toHaveLength(1)
    expect(await received(offSub.endpoint)).toHaveLength(0)
  })

  it('retries a push the push service refused, and after five retries leaves it to the dead-letter queue', async () => {
    const { reader: flaky, sub: flakySub } = await subscribed('flaky')
    const { reader: broken, sub: brokenSub } = await subscribed('fail')
    const { episodeId } = await favouriteSeries(noon.toISOString(), [flaky.id, broken.id])
    const q = localQueue(noon)
    await q.queue.send({ kind: 'episode', episodeId, after: 0 })
    await q.drain()
    expect(await received(flakySub.endpoint)).toHaveLength(1) // refused once
    const pushedAt = async (userId: number) => (await alarmOf(userId, `EPISODE:${episodeId}`))?.pushedAt
    expect(await pushedAt(flaky.id)).toBeNull()
    await q.drain(new Date(noon.getTime() + 31_000)) // the queue's first retry comes after 30 s
    expect(await received(flakySub.endpoint)).toHaveLength(2)
    expect(await pushedAt(flaky.id)).toEqual(expect.any(String))
    await q.drain(new Date(noon.getTime() + 3 * 3600_000))
    expect(await received(brokenSub.endpoint)).toHaveLength(6) // the first delivery and five retries
    expect(q.dead.map((d) => d.body)).toEqual([{ kind: 'push', alarmId: expect.any(Number), readerId: broken.id }])
    expect(q.pending()).toBe(0)
  })
})

describe('alarms written before the readers’ objects held them', () => {
  it('move into the object with their ids, and a push queued then (naming no reader) still goes out once', async () => {
    const { reader, sub } = await subscribed()
    const old = await db.first<{ id: number }>(
      `INSERT INTO alarms (user_id, kind, title, body, link, dedup_key, created_at)
       VALUES (?, 'NOTICE', 'alarm.text.notice', json_object('text', 'Ancienne alerte'), '/notice', 'NOTICE:old', ?) RETURNING id`,
      reader.id,
      new Date().toISOString(),
    )
    // the object as it was before alarms moved (its move at the previous step): its next call takes the D1 rows
    await runInDurableObject(readerObject(reader.id), async (instance, state) => {
      state.storage.sql.exec(`UPDATE facts SET value = '4' WHERE key = 'moved'`)
      Object.assign(instance, { moved: false })
    })
    const q = localQueue(noon)
    await q.queue.sendBatch([{ body: { kind: 'push', alarmId: old!.id } }, { body: { kind: 'push', alarmId: old!.id } }])
    await q.drain()
    expect(await received(sub.endpoint)).toHaveLength(1)
    expect(await alarmsIn(reader.id)).toEqual([
      expect.objectContaining({ id: old!.id, dedupKey: 'NOTICE:old', pushedAt: expect.any(String) }),
    ])
    expect(await db.all(`SELECT id FROM alarms WHERE user_id = ?`, reader.id)).toEqual([])
    expect((await read(await call(reader, 'GET', '/api/v1/alarm'))).data.items.map((a: { text: string }) => a.text)).toEqual([
      'Ancienne alerte',
    ])
  })
})

describe('the operator notice', () => {
  it('reaches the readers of one series (favourite or reading), not those who hid it, through the queue', async () => {
    const spy = vi.spyOn(env.ALARMS, 'send')
    try {
      const [fan, reading, hider, stranger] = await Promise.all([newReader(), newReader(), newReader(), newReader()])
      const s = await newSeries({ episodes: 1 })
      await db.run(`INSERT INTO favorites (user_id, series_id) VALUES (?1, ?3), (?2, ?3)`, fan.id, hider.id, s.seriesId)
      await db.run(
        `INSERT INTO reading_progress (user_id, series_id, episode_id) VALUES (?, ?, ?)`,
        reading.id,
        s.seriesId,
        s.episodeIds[0],
      )
      await db.run(`INSERT INTO hidden_series (user_id, series_id) VALUES (?, ?)`, hider.id, s.seriesId)
      // the plan's figure (npm run ops -- alarm send): the fan and the reader, not the one who hid it nor the stranger
      expect((await read(await opsGet(`/alarms/reach?seriesId=${s.seriesId}`))).data).toEqual({ readers: 2 })
      expect((await opsGet('/alarms/reach?seriesId=999999999')).status).toBe(404)
      for (const bad of ['0', '-1', 'x', '1e3', '9007199254740992'])
        expect((await opsGet(`/alarms/reach?seriesId=${bad}`)).status).toBe(400)
      const res = await ops('/alarms', {
        text: 'Pause de deux semaines & retour le 12',
        link: `/detail/${s.seriesId}`,
        seriesId: s.seriesId,
        reason: 'hiatus',
      })
      expect(res.status).toBe(200)
      const { broadcastId } = (await read(res)).data
      expect(spy.mock.calls.map((c) => c[0])).toEqual([{ kind: 'broadcast', broadcastId, after: 0 }])
      const q = localQueue(new Date())
      await q.queue.send(spy.mock.calls[0]![0])
      await q.drain()
      const page = (await read(await call(fan, 'GET', '/api/v1/alarm'))).data
      expect(page.items[0]).toMatchObject({ kind: 'NOTICE', text: 'Pause de deux semaines & retour le 12', link: `/detail/${s.seriesId}` })
      expect((await read(await call(reading, 'GET', '/api/v1/alarm/count'))).data.count).toBe(1)
      for (const r of [hider, stranger]) expect((await read(await call(r, 'GET', '/api/v1/alarm/count'))).data.count).toBe(0)
      expect((await ops('/alarms', { text: 'x', seriesId: 999999999, reason: 'r' })).status).toBe(404)
    } finally {
      spy.mockRestore()
    }
  })

  it("reaches a series' recent readers kept by its tally past a page of them, closed accounts and hiders left out, once each", async () => {
    const s = await newSeries({ episodes: 1 })
    const users = await manyUsers(2 * FANOUT.batch + 10)
    // the tally's readers (two pages): all but the last 10 users, who favourite the series instead; 10 accounts of its
    // first page of readers are closed since, one read too long ago, one (on the second page) hid the series
    const readers = users.slice(0, -10)
    const fans = users.slice(-10)
    const gone = readers.slice(5, 15)
    const [stale, hider] = [readers[3]!, readers[FANOUT.batch + 2]!]
    const today = new Date().toISOString().slice(0, 10)
    await tallyOf(s.seriesId).count(
      s.seriesId,
      readers.map((readerId) => ({
        readerId,
        seq: 1,
        event: { kind: 'read' as const, seriesId: s.seriesId, from: null, to: readerId === stale ? '2020-01-01' : today },
      })),
    )
    await db.run(
      `INSERT INTO library_marks (user_id, series_id, favorite, hidden, version) SELECT value, ?, 1, 0, 1 FROM json_each(?)`,
      s.seriesId,
      JSON.stringify(fans),
    )
    await db.run(`INSERT INTO library_marks (user_id, series_id, favorite, hidden, version) VALUES (?, ?, 0, 1, 1)`, hider, s.seriesId)
    await db.run(
      `UPDATE users SET deleted_at = ? WHERE id IN (SELECT value FROM json_each(?))`,
      new Date().toISOString(),
      JSON.stringify(gone),
    )
    const reached = users.filter((u) => u !== stale && u !== hider && !gone.includes(u))
    expect((await read(await opsGet(`/alarms/reach?seriesId=${s.seriesId}`))).data).toEqual({ readers: reached.length })
    const { broadcastId } = (await read(await ops('/alarms', { text: 'Nouvelle saison', seriesId: s.seriesId, reason: 'season' }))).data
    const q = localQueue(new Date())
    await q.queue.send({ kind: 'broadcast', broadcastId, after: 0 })
    await q.drain()
    expect(await alarmCount(users, `NOTICE:${broadcastId}`)).toEqual({ n: reached.length, readers: reached.length })
  }, 120_000)

  it('is deleted with its alarms, 30 days after it was sent', async () => {
    const now = new Date('2031-06-01T00:00:00.000Z')
    const add = (createdAt: string) =>
      db.first<{ id: number }>(
        `INSERT INTO alarm_broadcasts (text, reason, created_at) VALUES ('Maintenance', 'test', ?) RETURNING id`,
        createdAt,
      )
    const old = await add(isoAfter(now, -ALARM_KEEP_MS))
    const young = await add(isoAfter(now, -ALARM_KEEP_MS + 1))
    await purgeExpired(db, now, far)
    const left = await db.all<{ id: number }>(`SELECT id FROM alarm_broadcasts WHERE id IN (?, ?)`, old!.id, young!.id)
    expect(left.map((r) => r.id)).toEqual([young!.id])
  })

  it('to everyone reaches every account', async () => {
    const readers = await Promise.all([newReader(), newReader()])
    const reach = (await read(await opsGet('/alarms/reach'))).data.readers
    const { broadcastId } = (await read(await ops('/alarms', { text: 'Maintenance ce soir', reason: 'maintenance' }))).data
    const q = localQueue(new Date())
    await q.queue.send({ kind: 'broadcast', broadcastId, after: 0 })
    await q.drain()
    const users = (await db.all<{ id: number }>(`SELECT id FROM users WHERE deleted_at IS NULL`)).map((u) => u.id)
    expect(await alarmCount(users, `NOTICE:${broadcastId}`)).toEqual({ n: users.length, readers: users.length })
    expect(reach).toBe(users.length) // what the plan said
    for (const r of readers) expect((await read(await call(r, 'GET', '/api/v1/alarm'))).data.items[0].text).toBe('Maintenance ce soir')
  }, 60_000) // every account's object, each made on its first alarm

  it('never answers 5xx nor stores anything for 1,000 generated bad bodies and ids', async () => {
    const count = async () => (await db.first<{ n: number }>(`SELECT count(*) AS n FROM alarm_broadcasts`))!.n
    const before = await count()
    const bad = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record(
          {
            text: fc.oneof(fc.constant(''), fc.constant('   '), fc.string({ minLength: 201, maxLength: 300 }), fc.integer()),
            link: fc.oneof(fc.constant('//evil.example'), fc.constant('https://evil.example'), fc.constant('/a b'), fc.integer()),
            seriesId: fc.oneof(fc.constant(0), fc.constant(-1), fc.double(), fc.string()),
            reason: fc.oneof(fc.constant(''), fc.integer()),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
    )
    await fc.assert(
      fc.asyncProperty(
        bad,
        fc.string({ maxLength: 20 }).filter((id) => !/^[1-9]\d*$/.test(id)),
        async (body, id) => {
          const res = await ops('/alarms', body)
          expect(res.status).toBeGreaterThanOrEqual(400)
          await expectHandled(res)
          const pub = await ops(`/episodes/${encodeURIComponent(id)}/publish`)
          expect(pub.status).toBeGreaterThanOrEqual(400)
          await expectHandled(pub)
        },
      ),
      { numRuns: 1000 },
    )
    expect(await count()).toBe(before)
  }, 120_000)
})

describe('gifts', () => {
  it("a gift given to the reader raises one alarm from the reader's object", async () => {
    const reader = await newReader()
    const s = await newSeries({ episodes: 1 })
    const givenAt = '2031-05-05T10:00:00.000Z'
    const gift = await readerRows.first<{ id: number }>(
      reader.id,
      `INSERT INTO gifts (user_id, kind, series_id, title, given_at) VALUES (?, 'RENT', ?, 'Location offerte', ?) RETURNING id`,
      reader.id,
      s.seriesId,
      givenAt,
    )
    // the reader's object tells them when it wakes (its alarm), once
    await readerObject(reader.id).wake(reader.id, isoAfter(givenAt, 60_000))
    await readerObject(reader.id).wake(reader.id, isoAfter(givenAt, 11 * 60_000))
    const page = (await read(await call(reader, 'GET', '/api/v1/alarm'))).data
    expect(page.items).toHaveLength(1)
    expect(page.items[0]).toMatchObject({ kind: 'GIFT', text: 'Un cadeau vous attend : Location offerte.', link: '/gift' })
    expect(await alarmCount([reader.id], `GIFT:${gift!.id}`)).toEqual({ n: 1, readers: 1 })
  })
})
