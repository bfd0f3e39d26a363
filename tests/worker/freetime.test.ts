/**
 * POST /api/v1/purchase/freetime (spec §4 wait-until-free, docs/API.md): the series' ticket unlocks one episode for
 * 72 hours, the next ticket arrives the series' hours later; one ticket, however many concurrent requests;
 * replays answer the first response; a D1 failure at any statement leaves nothing behind.
 */
import { describe, expect, it } from 'vitest'
import { app, db, expectError, get, newReader, newSeries, read, snapshot, type Reader } from './purchase.helpers.ts'
import { frEdition, request } from './app.ts'
import { useFreetime } from '../../src/features/freetime/freetime.server.ts'
import { withMoneyFaultAt } from './faults.ts'
import { readerRows } from './reader-rows.ts'

function freetime(reader: Pick<Reader, 'headers'>, body: unknown, key: string | null = crypto.randomUUID()) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...reader.headers }
  if (key !== null) headers['idempotency-key'] = key
  return request(app, '/api/v1/purchase/freetime', { method: 'POST', headers, body: JSON.stringify(body) })
}

async function wufSeries(hours = 24, episodes = 4) {
  const s = await newSeries({ episodes, free: 1 })
  await db.run(`UPDATE series SET wuf_hours = ? WHERE id = ?`, hours, s.seriesId)
  return s
}

describe('POST /api/v1/purchase/freetime', () => {
  it('unlocks the episode for 72 hours, then the next ticket comes the series hours later', async () => {
    const reader = await newReader()
    const { episodeIds } = await wufSeries(24)
    const before = Date.now()
    const res = await freetime(reader, { episodeId: episodeIds[1] })
    const body = await read(res)
    expect(res.status).toBe(200)
    expect(body.data.episodeId).toBe(episodeIds[1])
    expect(Date.parse(body.data.expiresAt) - before).toBeGreaterThanOrEqual(72 * 3_600_000 - 1000)
    expect(Date.parse(body.data.expiresAt) - before).toBeLessThan(72 * 3_600_000 + 60_000)
    expect(Date.parse(body.data.nextTicketAt) - before).toBeGreaterThanOrEqual(24 * 3_600_000 - 1000)
    expect(Date.parse(body.data.nextTicketAt) - before).toBeLessThan(24 * 3_600_000 + 60_000)
    expect(await readerRows.all(reader.id, `SELECT kind, expires_at AS expiresAt FROM ownerships WHERE user_id = ?`, reader.id)).toEqual([
      { kind: 'FREETIME', expiresAt: body.data.expiresAt },
    ])
    expect(await readerRows.first(reader.id, `SELECT type, coins FROM purchases WHERE user_id = ?`, reader.id)).toEqual({
      type: 'FREETIME',
      coins: 0,
    })
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM coin_ledger WHERE user_id = ?`, reader.id)).toEqual({ n: 0 })

    // the viewer's access rule opens it; the preview says when the next ticket comes
    const p = (await read(await get(reader, `/api/v1/purchase/preview?episodeId=${episodeIds[2]}`))).data
    expect(p.freetime).toEqual({ hours: 24, unlockHours: 72, available: false, nextTicketAt: body.data.nextTicketAt })
    const again = await freetime(reader, { episodeId: episodeIds[2] })
    expect(again.status).toBe(409)
    expect((await read(again)).code).toBe('NOT_EVENT_REMAIN_TICKET')

    // 25 hours later a new ticket is there
    const later = new Date(Date.now() + 25 * 3_600_000)
    const claim = { userId: reader.id, key: 'later', scope: 'POST /purchase/freetime', requestHash: 'h' }
    const next = await useFreetime(db, { userId: reader.id, episodeId: episodeIds[2]!, claim, ageRules: frEdition }, later)
    expect(next.episodeId).toBe(episodeIds[2])
  })

  it('answers the codes of §8 and moves nothing', async () => {
    const reader = await newReader()
    const minor = await newReader({ adult: false })
    const { episodeIds } = await wufSeries(24)
    const plain = await newSeries({ episodes: 2 })
    const adult = await newSeries({ episodes: 2, adult: true })
    await db.run(`UPDATE series SET wuf_hours = 24 WHERE id = ?`, adult.seriesId)
    const before = await snapshot(reader.id)
    await expectError(await freetime(reader, { episodeId: episodeIds[0] }), 409, 'UN_MATCHED_RENT_SALE_TYPE') // free episode
    await expectError(await freetime(reader, { episodeId: plain.episodeIds[0] }), 409, 'UN_MATCHED_RENT_SALE_TYPE') // no WUF
    await expectError(await freetime(reader, { episodeId: 999_999_999 }), 404, 'NOT_FOUND_EPISODE')
    await expectError(await freetime(minor, { episodeId: adult.episodeIds[0] }), 403, 'ADULT_ONLY_CONTENTS')
    await expectError(await freetime({ headers: {} }, { episodeId: episodeIds[1] }), 401, 'NOT_LOGIN_USER')
    await expectError(await freetime(reader, { episodeId: episodeIds[1] }, null), 400, 'INVALID_PARAMETER')
    for (const bad of [{}, { episodeId: -1 }, { episodeId: 1.5 }, { episodeId: '1' }])
      await expectError(await freetime(reader, bad), 400, 'INVALID_PARAMETER')
    expect(await snapshot(reader.id)).toEqual(before)

    const owned = await db.first<{ series_id: number; id: number }>(`SELECT series_id, id FROM episodes WHERE id = ?`, episodeIds[3])
    await readerRows.run(
      reader.id,
      `INSERT INTO ownerships (user_id, series_id, episode_id, kind) VALUES (?, ?, ?, 'POSSESSION')`,
      reader.id,
      owned!.series_id,
      owned!.id,
    )
    await expectError(await freetime(reader, { episodeId: episodeIds[3] }), 409, 'EXIST_LIBRARY')
  })

  it('replays the first answer for the same key; another body with it is 409', async () => {
    const reader = await newReader()
    const { episodeIds } = await wufSeries(24)
    const first = await read(await freetime(reader, { episodeId: episodeIds[1] }, 'k1'))
    const replay = await freetime(reader, { episodeId: episodeIds[1] }, 'k1')
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(await read(replay)).toEqual(first)
    await expectError(await freetime(reader, { episodeId: episodeIds[2] }, 'k1'), 409, 'IDEMPOTENCY_KEY_REUSED')
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM wuf_tickets WHERE user_id = ?`, reader.id)).toEqual({ n: 1 })
  })

  it('50 concurrent uses of one ticket on different episodes: exactly one unlocks', async () => {
    const reader = await newReader()
    const { episodeIds } = await wufSeries(24, 51)
    const paid = episodeIds.slice(1)
    const responses = await Promise.all(paid.map((id) => freetime(reader, { episodeId: id })))
    const codes = await Promise.all(responses.map(async (r) => `${r.status} ${(await read(r)).code ?? 'SUCCESS'}`))
    expect(codes.filter((c) => c === '200 SUCCESS')).toHaveLength(1)
    expect(codes.filter((c) => c === '409 NOT_EVENT_REMAIN_TICKET')).toHaveLength(49)
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM ownerships WHERE user_id = ?`, reader.id)).toEqual({ n: 1 })
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM wuf_tickets WHERE user_id = ?`, reader.id)).toEqual({ n: 1 })
  }, 30_000)

  it('a failure injected at each statement of the use leaves no partial state', async () => {
    const reader = await newReader()
    const { episodeIds } = await wufSeries(24)
    const before = await snapshot(reader.id)
    const tickets = async () => readerRows.first(reader.id, `SELECT count(*) AS n FROM wuf_tickets WHERE user_id = ?`, reader.id)
    for (let at = 0; at < 5; at++) {
      const claim = { userId: reader.id, key: `fault-${at}`, scope: 'test', requestHash: 'h' }
      await expect(
        withMoneyFaultAt(at, () => useFreetime(db, { userId: reader.id, episodeId: episodeIds[1]!, claim, ageRules: frEdition })),
      ).rejects.toThrow()
      expect(await snapshot(reader.id), `statement ${at}`).toEqual(before)
      expect(await tickets()).toEqual({ n: 0 })
    }
  })
})
