/**
 * Early access (issue 37 point 1) on real workerd + D1 + the readers' objects: the operator's route opens a series'
 * next scheduled episodes (`POST /api/ops/series/{id}/early`, the edition's count and prices by default), skipping
 * those taken down; a signed-in reader sees them on the series and rents or buys them through the one purchase
 * (ledger, idempotency key), never with a wait-until-free ticket; a guest sees none; at publication an early episode
 * is an ordinary one and the buyer keeps it; 40 buys of one early episode at once charge once; its alarm reaches the
 * series' favourites once (not those who hid it); 40 openings at once open each episode once; taking one down ends
 * its early access; 1,000 generated bad bodies change nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { env } from 'cloudflare:workers'
import {
  app,
  buy,
  db,
  expectError,
  expectInvariant,
  get,
  give,
  newReader,
  newSeries,
  read,
  send,
  snapshot,
  type Reader,
} from './purchase.helpers.ts'
import { frEdition, request } from './app.ts'
import { OPS, expectBadBodiesRefused } from './ops.helpers.ts'
import { localQueue } from './alarm-queue.helpers.ts'
import { alarmsIn } from './reader.helpers.ts'
import { readerRows } from './reader-rows.ts'
import { seedDemo } from './seed.ts'
import { openEarly } from '../../src/features/catalogue/early.server.ts'
import { openEpisode } from '../../src/features/viewer/viewer.server.ts'
import { EPISODE_UNPUBLISHED_AT } from '../../src/features/catalogue/catalogue-ops.ts'
import { DAY_MS, isoAfter } from '../../src/lib/time.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

const early = frEdition.earlyAccess

/** A series of 6 episodes at rent 2 / buy 4: 1–2 out, 3–5 scheduled a week apart, 6 taken down; wait-until-free every day. */
async function scheduledSeries() {
  const s = await newSeries({ episodes: 6, priceRent: 2, priceBuy: 4 })
  await db.run(`UPDATE series SET wuf_hours = 24 WHERE id = ?`, s.seriesId)
  for (const [i, id] of s.episodeIds.slice(2, 5).entries())
    await db.run(`UPDATE episodes SET published_at = ? WHERE id = ?`, isoAfter(new Date(), (i + 1) * 7 * DAY_MS), id)
  await db.run(`UPDATE episodes SET published_at = ? WHERE id = ?`, EPISODE_UNPUBLISHED_AT, s.episodeIds[5])
  return s
}

/** An operator's POST with a reason. */
const opsPost = (path: string, body: Record<string, unknown> = {}) =>
  request(app, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...OPS.headers },
    body: JSON.stringify({ reason: 'early access test', ...body }),
  })
const open = (seriesId: number, body: Record<string, unknown>) => opsPost(`/api/ops/series/${seriesId}/early`, body)
type Opened = { opened: { id: number; priceRent: number; priceBuy: number }[]; early: { id: number }[] }
const ids = (list: { id: number }[]) => list.map((e) => e.id)

type Detail = {
  episodes: { id: number; price: { rent: number | null; buy: number | null } }[]
  early: { id: number; priceRent: number; priceBuy: number; publishedAt: string }[]
}
const detail = async (reader: Reader | null, seriesId: number) =>
  (await read(await get(reader, `/api/v1/contents/${seriesId}`))).data as Detail

describe('early access', () => {
  it('opens the next scheduled episodes; a signed-in reader buys one at its early price, a guest never sees it', async () => {
    const { seriesId, episodeIds } = await scheduledSeries()
    const [, , e3, e4, e5, e6] = episodeIds as [number, number, number, number, number, number]
    const two = (await read(await open(seriesId, { episodes: 2 }))).data as Opened
    expect(ids(two.opened)).toEqual([e3, e4])
    expect(two.opened[0]).toMatchObject({ priceRent: early.rent, priceBuy: early.buy })
    // asked again: nothing new; the edition's count (3) opens the next one, never the episode taken down
    expect((await read(await open(seriesId, { episodes: 2 }))).data).toMatchObject({ opened: [], early: [{ id: e3 }, { id: e4 }] })
    const all = (await read(await open(seriesId, {}))).data as Opened
    expect([ids(all.opened), ids(all.early)]).toEqual([[e5], [e3, e4, e5]])
    await expectError(await open(999_999_999, {}), 404, 'NOT_EXIST')

    // a guest: not on the series, not in the viewer
    expect((await detail(null, seriesId)).early).toEqual([])
    expect(ids((await detail(null, seriesId)).episodes)).toEqual(episodeIds.slice(0, 2))
    await expectError(await get(null, `/api/v1/viewer/${e3}`), 404, 'NOT_FOUND_EPISODE')

    // a signed-in reader: listed with their dates and early prices; locked until bought
    const reader = await newReader()
    await give(reader.id, 'COIN', 20)
    const seen = await detail(reader, seriesId)
    expect(seen.early.map((e) => [e.id, e.priceRent, e.priceBuy])).toEqual([e3, e4, e5].map((id) => [id, early.rent, early.buy]))
    expect(seen.early[0]!.publishedAt > new Date().toISOString()).toBe(true)
    expect(ids(seen.episodes)).toEqual(episodeIds.slice(0, 2))
    await expectError(await get(reader, `/api/v1/viewer/${e3}`), 403, 'UNAUTHORIZED_CONTENTS')
    const locked = await openEpisode(db, e3, { userId: reader.id }, frEdition)
    expect(locked).toMatchObject({
      access: { open: false },
      priceRent: early.rent,
      priceBuy: early.buy,
      earlyUntil: seen.early[0]!.publishedAt,
    })
    expect(locked!.slices).toEqual([])
    expect(await openEpisode(db, e3, { userId: null }, frEdition)).toBeNull()
    // the rent-or-buy choice: early prices, no wait-until-free, the episode alone
    const preview = (await read(await get(reader, `/api/v1/purchase/preview?episodeId=${e3}`))).data
    expect(preview.freetime).toBeNull()
    const { RENT, POSSESSION } = preview.offers
    expect([RENT.single.coins, POSSESSION.single.coins, RENT.remaining, POSSESSION.remaining]).toEqual([early.rent, early.buy, null, null])
    const ticket = await send(reader, 'POST', '/api/v1/purchase/freetime', JSON.stringify({ episodeId: e4 }), crypto.randomUUID())
    await expectError(ticket!, 404, 'NOT_FOUND_EPISODE')

    const bought = await buy(reader, { episodeIds: [e3], kind: 'POSSESSION' })
    expect(bought.status).toBe(200)
    expect(await readerRows.all(reader.id, `SELECT amount FROM coin_ledger WHERE user_id = ? AND kind = 'USE'`, reader.id)).toEqual([
      { amount: -early.buy },
    ])
    expect((await read(await get(reader, `/api/v1/viewer/${e3}`))).data).toMatchObject({ access: { open: true } })
    // its reader likes it like any episode
    const like = (await send(reader, 'PUT', `/api/v1/viewer/${e3}/like`))!
    expect([like.status, (await read(like)).data]).toEqual([200, { episodeId: e3, liked: true, likes: 1 }])
    const rented = await buy(reader, { episodeIds: [e4], kind: 'RENT' })
    expect(rented.status).toBe(200)
    await expectInvariant(reader.id)

    // published: an ordinary episode at its own price, still the buyer's; the rest stay early
    await db.run(`UPDATE episodes SET published_at = ? WHERE id = ?`, isoAfter(new Date(), -60_000), e3)
    const after = await detail(reader, seriesId)
    expect(ids(after.early)).toEqual([e4, e5])
    expect(after.episodes.find((e) => e.id === e3)!.price).toEqual({ rent: 2, buy: 4 })
    expect((await read(await get(reader, `/api/v1/viewer/${e3}`))).data).toMatchObject({
      access: { open: true },
      earlyUntil: null,
      priceBuy: 4,
    })
    await expectError(await get(null, `/api/v1/viewer/${e3}`), 403, 'UNAUTHORIZED_CONTENTS')

    // taken down: its early access ends (its buyer keeps the right for when it is back)
    expect((await opsPost(`/api/ops/episodes/${e4}/unpublish`)).status).toBe(200)
    expect(ids((await detail(reader, seriesId)).early)).toEqual([e5])
    await expectError(await get(reader, `/api/v1/viewer/${e4}`), 404, 'NOT_FOUND_EPISODE')
    expect(await db.first(`SELECT early_at FROM episodes WHERE id = ?`, e6)).toEqual({ early_at: null })
  })

  it('charges once for 40 buys of one early episode at once', async () => {
    const { seriesId, episodeIds } = await scheduledSeries()
    expect((await open(seriesId, { episodes: 1 })).status).toBe(200)
    const reader = await newReader()
    await give(reader.id, 'COIN', 100)
    const results = await Promise.all(Array.from({ length: 40 }, () => buy(reader, { episodeIds: [episodeIds[2]], kind: 'POSSESSION' })))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    for (const r of results.filter((r) => r.status !== 200)) expect(r.status).toBeLessThan(500)
    expect(
      await readerRows.first(reader.id, `SELECT sum(amount) AS spent FROM coin_ledger WHERE user_id = ? AND kind = 'USE'`, reader.id),
    ).toEqual({
      spent: -early.buy,
    })
    await expectInvariant(reader.id)
  })

  it('raises one alarm per favourite of the series, none for a reader who hid it; 40 openings at once open each episode once', async () => {
    const { seriesId, episodeIds } = await scheduledSeries()
    const [fan, hider, other] = await Promise.all([newReader(), newReader(), newReader()])
    for (const r of [fan, hider]) expect((await send(r, 'POST', `/api/v1/library/favorite/${seriesId}`))!.status).toBe(200)
    expect((await send(hider, 'POST', '/api/v1/library/hidden', JSON.stringify({ seriesId, hidden: true })))!.status).toBe(200)
    // the marks reach D1 through the reader's outbox and the queue
    await expect
      .poll(
        async () =>
          (await db.first<{ n: number }>(
            `SELECT count(*) AS n FROM library_marks WHERE series_id = ? AND (favorite = 1 OR hidden = 1)`,
            seriesId,
          ))!.n,
        { timeout: 10_000 },
      )
      .toBe(2)
    await expect
      .poll(
        async () =>
          (await db.first<{ h: number }>(`SELECT hidden AS h FROM library_marks WHERE series_id = ? AND user_id = ?`, seriesId, hider.id))
            ?.h,
        { timeout: 10_000 },
      )
      .toBe(1)

    const q = localQueue(new Date())
    const results = await Promise.all(Array.from({ length: 40 }, () => openEarly(db, q.queue, seriesId, 2, early)))
    expect(results.flatMap((r) => ids(r!.opened)).sort((a, b) => a - b)).toEqual(episodeIds.slice(2, 4))
    expect(q.sent.map((m) => m.body)).toEqual(
      expect.arrayContaining(episodeIds.slice(2, 4).map((episodeId) => ({ kind: 'early', episodeId, after: 0 }))),
    )
    expect(q.sent).toHaveLength(2)
    await q.drain()
    await q.drain() // nothing left; a message delivered again below writes nothing more
    const earlyAlarms = async (r: Reader) =>
      (await alarmsIn(r.id))
        .filter((a) => a.dedupKey.startsWith('EARLY:'))
        .map((a) => a.dedupKey)
        .sort()
    expect(await earlyAlarms(fan)).toEqual(episodeIds.slice(2, 4).map((id) => `EARLY:${id}`))
    expect(await earlyAlarms(hider)).toEqual([])
    expect(await earlyAlarms(other)).toEqual([])
    const alarm = (await read(await get(fan, '/api/v1/alarm'))).data.items.find(
      (a: { link: string }) => a.link === `/viewer/${episodeIds[2]}`,
    )
    expect(alarm.text).toMatch(/^Série test \d+ : l’épisode\u00a03 est en avant-première, avant sa parution le \d\d\.\d\d\.\d{4}\.$/)
  })

  it('refuses 1,000 generated bad bodies and changes nothing', async () => {
    const { seriesId } = await scheduledSeries()
    const before = await db.all(`SELECT id, early_at FROM episodes WHERE series_id = ? ORDER BY id`, seriesId)
    const reader = await newReader()
    const was = await snapshot(reader.id)
    await expectBadBodiesRefused([`/api/ops/series/${seriesId}/early`], {
      episodes: fc.oneof(fc.integer({ min: -5, max: 0 }), fc.integer({ min: 21 }), fc.string(), fc.double(), fc.constant(null)),
    })
    expect(await db.all(`SELECT id, early_at FROM episodes WHERE series_id = ? ORDER BY id`, seriesId)).toEqual(before)
    expect(await snapshot(reader.id)).toEqual(was)
  })
})
