/**
 * The gift box (spec §2 /gift, §3 gift tickets and purchase types RENT_GIFT/POSSESSION_GIFT, §8 Gift codes) on
 * real workerd + D1: a ticket opens one episode for 0 coins, once; every refusal answers its code and moves
 * nothing; replays answer the first response; concurrent uses of one gift open one episode; a D1 failure at
 * any statement leaves nothing behind.
 */
import { describe, expect, it } from 'vitest'
import { app, db, expectError, get, newReader, newSeries, read, snapshot, type Reader } from './purchase.helpers.ts'
import { frEdition, request } from './app.ts'
import { useGift } from '../../src/features/gift/gift.server.ts'
import { withMoneyFaultAt } from './faults.ts'
import { readerRows } from './reader-rows.ts'

function use(reader: Pick<Reader, 'headers'>, giftId: number | string, body: unknown = {}, key: string | null = crypto.randomUUID()) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...reader.headers }
  if (key !== null) headers['idempotency-key'] = key
  return request(app, `/api/v1/gift/${giftId}/use`, { method: 'POST', headers, body: JSON.stringify(body) })
}

async function newGift(
  userId: number,
  g: { kind: 'RENT' | 'POSSESSION'; seriesId?: number | null; episodeId?: number | null; expiresInDays?: number },
) {
  const expiresAt = g.expiresInDays === undefined ? null : new Date(Date.now() + g.expiresInDays * 86_400_000).toISOString()
  const row = await readerRows.first<{ id: number }>(
    userId,
    `INSERT INTO gifts (user_id, kind, series_id, episode_id, title, expires_at) VALUES (?, ?, ?, ?, 'Cadeau', ?) RETURNING id`,
    userId,
    g.kind,
    g.seriesId ?? null,
    g.episodeId ?? null,
    expiresAt,
  )
  return row!.id
}

const gifts = (userId: number) =>
  readerRows.all(
    userId,
    `SELECT id, used_at IS NOT NULL AS used, used_episode_id AS usedEpisodeId FROM gifts WHERE user_id = ? ORDER BY id`,
    userId,
  )

describe('gift box', () => {
  it('lists each gift with its series title and episode number; a series ticket offers the episodes the reader does not hold', async () => {
    const reader = await newReader()
    const { seriesId, episodeIds } = await newSeries({ episodes: 4, free: 1, priceRent: 2, priceBuy: 5 })
    const title = (await db.first<{ title: string }>(`SELECT title FROM series WHERE id = ?`, seriesId))!.title
    const first = await newGift(reader.id, { kind: 'RENT', seriesId })
    const second = await newGift(reader.id, { kind: 'RENT', seriesId })
    const own = await newGift(reader.id, { kind: 'POSSESSION', episodeId: episodeIds[2] })
    expect((await use(reader, first, { episodeId: episodeIds[1] })).status).toBe(200)
    const list = (await read(await get(reader, '/api/v1/gift'))).data.items
    const of = (id: number) => list.find((g: { id: number }) => g.id === id)
    expect(of(second)).toMatchObject({ seriesId, seriesTitle: title, episodeId: null, episodeNo: null, usedAt: null })
    expect(of(second).choices.map((c: { id: number }) => c.id)).toEqual([episodeIds[2], episodeIds[3]])
    expect(of(own)).toMatchObject({ seriesId: null, seriesTitle: title, episodeId: episodeIds[2], episodeNo: 3, choices: null })
    expect(of(first)).toMatchObject({ seriesTitle: title, usedEpisodeId: episodeIds[1], choices: null })
  })

  it('lists the gifts and a rental ticket for a series opens the chosen episode for the rental length, for 0 coins', async () => {
    const reader = await newReader()
    const { seriesId, episodeIds } = await newSeries({ episodes: 4, free: 1, priceRent: 2, priceBuy: 5 })
    const rent = await newGift(reader.id, { kind: 'RENT', seriesId, expiresInDays: 10 })
    const own = await newGift(reader.id, { kind: 'POSSESSION', episodeId: episodeIds[3] })
    await newGift(reader.id, { kind: 'RENT', seriesId, expiresInDays: -1 }) // expired: not shown

    const list = (await read(await get(reader, '/api/v1/gift'))).data.items
    expect(list.map((g: { id: number }) => g.id).sort()).toEqual([rent, own].sort())
    const ticket = list.find((g: { id: number }) => g.id === rent)
    expect(ticket.choices.map((c: { id: number }) => c.id)).toEqual(episodeIds.slice(1))
    expect(list.find((g: { id: number }) => g.id === own).choices).toBeNull()

    const before = Date.now()
    const res = await use(reader, rent, { episodeId: episodeIds[1] })
    const body = await read(res)
    expect(res.status).toBe(200)
    expect(body.data.purchase).toMatchObject({ episodeId: episodeIds[1], kind: 'RENT_GIFT' })
    expect(Date.parse(body.data.purchase.expiresAt) - before).toBeGreaterThanOrEqual(72 * 3_600_000 - 1000)
    const bought = await read(await use(reader, own))
    expect(bought.data.purchase).toEqual({ episodeId: episodeIds[3], kind: 'POSSESSION_GIFT', expiresAt: null })

    expect(
      await readerRows.all(
        reader.id,
        `SELECT episode_id AS e, type, coins, gift_id AS g FROM purchases WHERE user_id = ? ORDER BY id`,
        reader.id,
      ),
    ).toEqual([
      { e: episodeIds[1], type: 'RENT_GIFT', coins: 0, g: rent },
      { e: episodeIds[3], type: 'POSSESSION_GIFT', coins: 0, g: own },
    ])
    expect(
      await readerRows.all(reader.id, `SELECT episode_id AS e, kind FROM ownerships WHERE user_id = ? ORDER BY id`, reader.id),
    ).toEqual([
      { e: episodeIds[1], kind: 'RENT' },
      { e: episodeIds[3], kind: 'POSSESSION' },
    ])
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM coin_ledger WHERE user_id = ?`, reader.id)).toEqual({ n: 0 })
    await expectError(await use(reader, rent, { episodeId: episodeIds[2] }), 409, 'ALREADY_GIVEN_GIFT')
  })

  it('answers every gift code of §8 and moves nothing', async () => {
    const reader = await newReader()
    const other = await newReader()
    const minor = await newReader({ adult: false })
    const { seriesId, episodeIds } = await newSeries({ episodes: 3, free: 1, priceRent: null, priceBuy: 5 })
    const elsewhere = await newSeries({ episodes: 2 })
    const adult = await newSeries({ episodes: 2, adult: true })
    const series = await newGift(reader.id, { kind: 'POSSESSION', seriesId })
    const rentOnBuyOnly = await newGift(reader.id, { kind: 'RENT', seriesId })
    const expired = await newGift(reader.id, { kind: 'POSSESSION', seriesId, expiresInDays: -1 })
    // each reader's object numbers its own gifts: the other reader's fourth gift has a number the reader has none of
    let others = 0
    for (let i = 0; i < 4; i++) others = await newGift(other.id, { kind: 'POSSESSION', seriesId })
    expect(others).toBeGreaterThan(expired)
    const minors = await newGift(minor.id, { kind: 'POSSESSION', seriesId: adult.seriesId })
    const before = await snapshot(reader.id)
    const beforeGifts = await gifts(reader.id)

    await expectError(await use(reader, 999_999_999, { episodeId: episodeIds[1] }), 404, 'NOT_FOUND_GIFT')
    await expectError(await use(reader, others, { episodeId: episodeIds[1] }), 404, 'NOT_FOUND_GIFT')
    await expectError(await use(reader, expired, { episodeId: episodeIds[1] }), 404, 'NOT_FOUND_GIFT')
    await expectError(await use(reader, series), 404, 'NOT_FOUND_GIFT_INFO') // a series ticket needs an episode
    await expectError(await use(reader, series, { episodeId: 999_999_999 }), 404, 'NOT_FOUND_GIFT_INFO')
    await expectError(await use(reader, series, { episodeId: elsewhere.episodeIds[1] }), 400, 'UN_MATCHED_GIFT_TARGET_TYPE')
    await expectError(await use(reader, series, { episodeId: episodeIds[0] }), 400, 'UN_MATCHED_GIFT_TARGET_TYPE') // free
    await expectError(await use(reader, rentOnBuyOnly, { episodeId: episodeIds[1] }), 400, 'UN_MATCHED_GIFT_TARGET_TYPE')
    await expectError(await use(minor, minors, { episodeId: adult.episodeIds[0] }), 403, 'ADULT_ONLY_CONTENTS')
    await expectError(await use({ headers: {} }, series, { episodeId: episodeIds[1] }), 401, 'NOT_LOGIN_USER')
    await expectError(await use(reader, series, { episodeId: episodeIds[1] }, null), 400, 'INVALID_PARAMETER')
    for (const bad of ['0', 'x', '-3']) await expectError(await use(reader, bad, { episodeId: episodeIds[1] }), 400, 'INVALID_PARAMETER')
    await expectError(await use(reader, series, { episodeId: 'one' }), 400, 'INVALID_PARAMETER')
    expect(await snapshot(reader.id)).toEqual(before)
    expect(await gifts(reader.id)).toEqual(beforeGifts)

    await readerRows.run(
      reader.id,
      `INSERT INTO ownerships (user_id, series_id, episode_id, kind) VALUES (?, ?, ?, 'POSSESSION')`,
      reader.id,
      seriesId,
      episodeIds[2],
    )
    await expectError(await use(reader, series, { episodeId: episodeIds[2] }), 409, 'EXIST_LIBRARY')
    expect(await gifts(reader.id)).toEqual(beforeGifts)
  })

  it('replays the first answer for the same key; another body with it is 409; the gift stays used once', async () => {
    const reader = await newReader()
    const { seriesId, episodeIds } = await newSeries({ episodes: 3 })
    const id = await newGift(reader.id, { kind: 'RENT', seriesId })
    const first = await read(await use(reader, id, { episodeId: episodeIds[0] }, 'g1'))
    const replay = await use(reader, id, { episodeId: episodeIds[0] }, 'g1')
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(await read(replay)).toEqual(first)
    await expectError(await use(reader, id, { episodeId: episodeIds[1] }, 'g1'), 409, 'IDEMPOTENCY_KEY_REUSED')
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM purchases WHERE user_id = ?`, reader.id)).toEqual({ n: 1 })
  })

  it('30 concurrent uses of one series ticket on different episodes: exactly one opens', async () => {
    const reader = await newReader()
    const { seriesId, episodeIds } = await newSeries({ episodes: 30 })
    const id = await newGift(reader.id, { kind: 'POSSESSION', seriesId })
    const responses = await Promise.all(episodeIds.map((e) => use(reader, id, { episodeId: e })))
    const codes = await Promise.all(responses.map(async (r) => `${r.status} ${(await read(r)).code ?? 'SUCCESS'}`))
    expect(codes.filter((c) => c === '200 SUCCESS')).toHaveLength(1)
    expect(codes.filter((c) => c === '409 ALREADY_GIVEN_GIFT')).toHaveLength(29)
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM ownerships WHERE user_id = ?`, reader.id)).toEqual({ n: 1 })
  }, 30_000)

  it('a failure injected at each statement of a use leaves no partial state', async () => {
    const reader = await newReader()
    const { seriesId, episodeIds } = await newSeries({ episodes: 3 })
    const id = await newGift(reader.id, { kind: 'RENT', seriesId })
    const before = await snapshot(reader.id)
    const beforeGifts = await gifts(reader.id)
    for (let at = 0; at < 5; at++) {
      const claim = { userId: reader.id, key: `fault-${at}`, scope: 'test', requestHash: 'h' }
      await expect(
        withMoneyFaultAt(at, () =>
          useGift(db, { userId: reader.id, giftId: id, episodeId: episodeIds[1], claim, rentalHours: 72, ageRules: frEdition }),
        ),
      ).rejects.toThrow()
      expect(await snapshot(reader.id), `statement ${at}`).toEqual(before)
      expect(await gifts(reader.id), `statement ${at}`).toEqual(beforeGifts)
    }
  })
})
