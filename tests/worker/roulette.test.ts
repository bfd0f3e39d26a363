/**
 * /api/v1/roulette (spec §2 /roulette, §6 events for adults or minors, §8 event codes): a spin uses one ticket
 * (or the day's free spin), the server draws the prize and grants it through the ledger (source EVENT) in the
 * same batch; replays answer the first response; concurrency and injected D1 failures never leave half a spin.
 */
import { describe, expect, it } from 'vitest'
import { app, db, expectError, expectInvariant, get, newReader, read, snapshot } from './purchase.helpers.ts'
import { FIVE_BONUS, giveTickets, newRoulette, rouletteSnapshot, spin } from './roulette.helpers.ts'
import { frEdition, request } from './app.ts'
import { spinRoulette, rouletteState } from '../../src/features/roulette/roulette.server.ts'
import { assertEventAccess } from '../../src/features/age/age.server.ts'
import { withMoneyFaultAt } from './faults.ts'
import { readerRows } from './reader-rows.ts'

describe('GET /api/v1/roulette and POST /api/v1/roulette/spin', () => {
  it('a spin uses a ticket, grants the drawn prize as an EVENT lot and answers the new balance', async () => {
    const reader = await newReader()
    const eventId = await newRoulette()
    await giveTickets(reader.id, 3, eventId)
    const state = (await read(await get(reader, `/api/v1/roulette?eventId=${eventId}`))).data
    expect(state).toMatchObject({
      event: { id: eventId },
      prizes: [
        { type: 'BONUS', amount: 5 },
        { type: 'BONUS', amount: 5 },
      ],
      tickets: 3,
      freeSpins: 0,
      coin: { bonus: 0 },
    })
    expect(state.prizes[0]).not.toHaveProperty('weight') // the odds stay on the server

    const before = Date.now()
    const res = await spin(reader, { eventId })
    const body = await read(res)
    expect(res.status).toBe(200)
    expect(body.data).toMatchObject({
      eventId,
      prize: { type: 'BONUS', amount: 5 },
      tickets: 2,
      freeSpins: 0,
      coin: { bonus: 5, total: 5 },
    })
    expect([0, 1]).toContain(body.data.prizeIndex)
    const ledger = await readerRows.all(reader.id, `SELECT kind, type, source, amount, ref FROM coin_ledger WHERE user_id = ?`, reader.id)
    expect(ledger).toEqual([{ kind: 'CHARGE', type: 'BONUS', source: 'EVENT', amount: 5, ref: `event_entry:${body.data.entryId}` }])
    const lot = await readerRows.first<{ expiresAt: string }>(
      reader.id,
      `SELECT expires_at AS expiresAt FROM coin_lots WHERE user_id = ?`,
      reader.id,
    )
    expect(Date.parse(lot!.expiresAt) - before).toBeGreaterThanOrEqual(30 * 86_400_000 - 1000)
    expect(await rouletteSnapshot(reader.id)).toEqual({ tickets: { n: 1 }, entries: { n: 1 } })
    expect((await read(await get(reader, '/api/v1/coin'))).data).toEqual(body.data.coin)
    await expectInvariant(reader.id)
  })

  it('the running roulette is the default; a NONE prize grants nothing', async () => {
    const reader = await newReader()
    await db.run(`UPDATE events SET is_active = 0 WHERE kind = 'ROULETTE'`)
    const eventId = await newRoulette({
      prizes: [
        { type: 'NONE', amount: 0, weight: 1 },
        { type: 'NONE', amount: 0, weight: 1 },
      ],
    })
    await giveTickets(reader.id, 1, null)
    expect((await read(await get(reader, '/api/v1/roulette'))).data.event.id).toBe(eventId)
    const body = await read(await spin(reader, { eventId }))
    expect(body.data).toMatchObject({ prize: { type: 'NONE', amount: 0 }, tickets: 0 })
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM coin_ledger WHERE user_id = ?`, reader.id)).toEqual({ n: 0 })
    await db.run(`UPDATE events SET is_active = 0 WHERE id = ?`, eventId)
    await expectError(await get(reader, '/api/v1/roulette'), 404, 'NOT_FOUND_EVENT')
  })

  it('the prize is the drawn slice: the weights decide, never a slice off the wheel', async () => {
    const reader = await newReader()
    const wheel = {
      prizes: [
        { type: 'BONUS', amount: 1, weight: 3 },
        { type: 'FREE_COIN', amount: 10, weight: 1 },
        { type: 'MILEAGE', amount: 100, weight: 1 },
      ],
    }
    const eventId = await newRoulette(wheel)
    await giveTickets(reader.id, 3, eventId)
    const claim = (k: string) => ({ userId: reader.id, key: k, scope: 'test', requestHash: 'h' })
    const at = (r: number, k: string) =>
      spinRoulette(db, { userId: reader.id, eventId, claim: claim(k), edition: frEdition, random: () => r })
    expect((await at(0.59, 'a')).prize).toEqual({ type: 'BONUS', amount: 1 })
    expect((await at(0.6, 'b')).prize).toEqual({ type: 'FREE_COIN', amount: 10 })
    const last = await at(0.99, 'c')
    expect(last.prize).toEqual({ type: 'MILEAGE', amount: 100 })
    expect(last.coin).toMatchObject({ bonus: 1, freeCoin: 10, mileage: 100, total: 11 })
  })

  it('answers every event code of §8 and moves nothing', async () => {
    const adult = await newReader()
    const minor = await newReader({ adult: false })
    const running = await newRoulette()
    const ended = await newRoulette(FIVE_BONUS, { fromDays: -20, toDays: -10 })
    const later = await newRoulette(FIVE_BONUS, { fromDays: 5, toDays: 10 })
    const adultsOnly = await newRoulette(FIVE_BONUS, { restriction: 'ADULT' })
    const minorsOnly = await newRoulette(FIVE_BONUS, { restriction: 'NON_ADULT' })
    const promotion = await newRoulette(FIVE_BONUS, { kind: 'PROMOTION' })
    const broken = await newRoulette({ prizes: [] })
    for (const r of [adult, minor]) await giveTickets(r.id, 5, null)
    const before = [await snapshot(adult.id), await rouletteSnapshot(adult.id), await snapshot(minor.id), await rouletteSnapshot(minor.id)]

    await expectError(await spin(adult, { eventId: 999_999_999 }), 404, 'NOT_FOUND_EVENT')
    await expectError(await spin(adult, { eventId: promotion }), 404, 'NOT_FOUND_EVENT')
    await expectError(await spin(adult, { eventId: broken }), 404, 'NOT_FOUND_EVENT')
    await expectError(await get(adult, `/api/v1/roulette?eventId=${promotion}`), 404, 'NOT_FOUND_EVENT')
    await expectError(await spin(adult, { eventId: ended }), 403, 'NOT_EVENT_PERIOD')
    await expectError(await spin(adult, { eventId: later }), 403, 'NOT_EVENT_PERIOD')
    await expectError(await spin(minor, { eventId: adultsOnly }), 403, 'UNAUTHORIZED_NON_ADULT')
    await expectError(await spin(adult, { eventId: minorsOnly }), 403, 'UNAUTHORIZED_ADULT')
    await expectError(await spin({ headers: {} }, { eventId: running }), 401, 'NOT_LOGIN_USER')
    await expectError(await get(null, '/api/v1/roulette'), 401, 'NOT_LOGIN_USER')
    await expectError(await spin(adult, { eventId: running }, null), 400, 'INVALID_PARAMETER')
    for (const bad of [{}, { eventId: 0 }, { eventId: '1' }, { eventId: 1.5 }, 'nope'])
      await expectError(await spin(adult, bad), 400, 'INVALID_PARAMETER')
    await expectError(await get(adult, '/api/v1/roulette?eventId=abc'), 400, 'INVALID_PARAMETER')
    expect([
      await snapshot(adult.id),
      await rouletteSnapshot(adult.id),
      await snapshot(minor.id),
      await rouletteSnapshot(minor.id),
    ]).toEqual(before)
    // a guest in a restricted event: UNAUTHORIZED_USER (the API asks a guest to sign in before that)
    await expect(assertEventAccess(db, adultsOnly, null, frEdition)).rejects.toMatchObject({ code: 'UNAUTHORIZED_USER' })
    // the restricted events are open to the right readers
    expect((await spin(adult, { eventId: adultsOnly })).status).toBe(200)
    expect((await spin(minor, { eventId: minorsOnly })).status).toBe(200)
  })

  it('no ticket → NOT_EVENT_REMAIN_TICKET: used, expired, another event’s or another reader’s tickets do not count', async () => {
    const reader = await newReader()
    const other = await newReader()
    const eventId = await newRoulette()
    const elsewhere = await newRoulette()
    await expectError(await spin(reader, { eventId }), 409, 'NOT_EVENT_REMAIN_TICKET')
    await giveTickets(reader.id, 1, eventId, -1) // expired yesterday
    await giveTickets(reader.id, 1, elsewhere)
    await giveTickets(other.id, 2, eventId)
    await expectError(await spin(reader, { eventId }), 409, 'NOT_EVENT_REMAIN_TICKET')
    await giveTickets(reader.id, 1, eventId)
    expect((await spin(reader, { eventId })).status).toBe(200)
    await expectError(await spin(reader, { eventId }), 409, 'NOT_EVENT_REMAIN_TICKET')
    expect(
      await readerRows.first(other.id, `SELECT count(*) AS n FROM event_tickets WHERE user_id = ? AND used_at IS NULL`, other.id),
    ).toEqual({ n: 2 })
    expect((await read(await get(reader, `/api/v1/roulette?eventId=${elsewhere}`))).data.tickets).toBe(1)
  })

  it('the daily free spin: once a day in the edition time zone, before the tickets', async () => {
    const reader = await newReader()
    const eventId = await newRoulette({ ...FIVE_BONUS, dailyFreeTickets: 1 })
    await giveTickets(reader.id, 1, eventId)
    expect((await read(await get(reader, `/api/v1/roulette?eventId=${eventId}`))).data).toMatchObject({ tickets: 1, freeSpins: 1 })
    expect((await read(await spin(reader, { eventId }))).data).toMatchObject({ tickets: 1, freeSpins: 0 })
    expect((await read(await spin(reader, { eventId }))).data).toMatchObject({ tickets: 0, freeSpins: 0 })
    await expectError(await spin(reader, { eventId }), 409, 'NOT_EVENT_REMAIN_TICKET')
    const tomorrow = new Date(Date.now() + 86_400_000)
    const claim = { userId: reader.id, key: 'tomorrow', scope: 'test', requestHash: 'h' }
    expect(await spinRoulette(db, { userId: reader.id, eventId, claim, edition: frEdition }, tomorrow)).toMatchObject({
      freeSpins: 0,
      tickets: 0,
    })
    expect((await rouletteState(db, { userId: reader.id, eventId, timeZone: frEdition.timeZone }, tomorrow)).freeSpins).toBe(0)
    await expectInvariant(reader.id)
  })

  it('replays the first answer for the same key; another body with it is 409', async () => {
    const reader = await newReader()
    const eventId = await newRoulette()
    const other = await newRoulette()
    await giveTickets(reader.id, 3, null)
    const first = await read(await spin(reader, { eventId }, 'k1'))
    const replay = await spin(reader, { eventId }, 'k1')
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(await read(replay)).toEqual(first)
    await expectError(await spin(reader, { eventId: other }, 'k1'), 409, 'IDEMPOTENCY_KEY_REUSED')
    expect(await rouletteSnapshot(reader.id)).toEqual({ tickets: { n: 1 }, entries: { n: 1 } })
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM coin_ledger WHERE user_id = ?`, reader.id)).toEqual({ n: 1 })
  })

  it('50 concurrent spins with 3 tickets: exactly 3 results and 3 grants', async () => {
    const reader = await newReader()
    const eventId = await newRoulette()
    await giveTickets(reader.id, 3, eventId)
    const responses = await Promise.all(Array.from({ length: 50 }, () => spin(reader, { eventId })))
    const codes = await Promise.all(responses.map(async (r) => `${r.status} ${(await read(r)).code ?? 'SUCCESS'}`))
    expect(codes.filter((c) => c === '200 SUCCESS')).toHaveLength(3)
    expect(codes.filter((c) => c === '409 NOT_EVENT_REMAIN_TICKET')).toHaveLength(47)
    expect(await rouletteSnapshot(reader.id)).toEqual({ tickets: { n: 3 }, entries: { n: 3 } })
    expect(
      await readerRows.first(
        reader.id,
        `SELECT count(*) AS n, sum(amount) AS coins FROM coin_ledger WHERE user_id = ? AND source = 'EVENT'`,
        reader.id,
      ),
    ).toEqual({ n: 3, coins: 15 })
    expect((await expectInvariant(reader.id)).lots).toBe(15)
    // the same key 20 times at once: one spin, every answer the same
    await giveTickets(reader.id, 3, eventId)
    const same = await Promise.all(Array.from({ length: 20 }, () => spin(reader, { eventId }, 'same-key')))
    const bodies = await Promise.all(same.map(read))
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1)
    expect(await rouletteSnapshot(reader.id)).toEqual({ tickets: { n: 4 }, entries: { n: 4 } })
  }, 60_000)

  it('a failure injected at each statement of the spin leaves no partial state', async () => {
    const reader = await newReader()
    const eventId = await newRoulette()
    await giveTickets(reader.id, 1, eventId)
    const before = [await snapshot(reader.id), await rouletteSnapshot(reader.id)]
    for (let at = 0; at < 5; at++) {
      const claim = { userId: reader.id, key: `fault-${at}`, scope: 'test', requestHash: 'h' }
      await expect(
        withMoneyFaultAt(
          at,
          () => spinRoulette(db, { userId: reader.id, eventId, claim, edition: frEdition }),
          (statements) => expect(statements).toHaveLength(5), // ticket, entry, lot, ledger, idempotency row
        ),
      ).rejects.toThrow()
      expect([await snapshot(reader.id), await rouletteSnapshot(reader.id)], `statement ${at}`).toEqual(before)
    }
    // and the ticket still works afterwards
    expect((await spin(reader, { eventId })).status).toBe(200)
  })

  it('the plain form (no JavaScript): spins once per rendered key and answers with a 303 to the page', async () => {
    const reader = await newReader()
    const eventId = await newRoulette()
    await giveTickets(reader.id, 1, eventId)
    const post = (body: string, headers: Record<string, string> = {}) =>
      request(app, '/api/v1/roulette/web/spin', {
        method: 'POST',
        headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded', ...reader.headers, ...headers },
        body,
      })
    const res = await post(`eventId=${eventId}&key=form-1`)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/roulette?prize=BONUS:5#roulette-status')
    const again = await post(`eventId=${eventId}&key=form-1`) // the same form sent twice: the first answer, no second spin
    expect(again.headers.get('location')).toBe('/roulette?prize=BONUS:5#roulette-status')
    expect(await rouletteSnapshot(reader.id)).toEqual({ tickets: { n: 1 }, entries: { n: 1 } })
    expect((await post(`eventId=${eventId}&key=form-2`)).headers.get('location')).toBe(
      '/roulette?error=NOT_EVENT_REMAIN_TICKET#roulette-status',
    )
    expect((await post(`eventId=abc&key=form-3`)).headers.get('location')).toBe('/roulette?error=INVALID_PARAMETER#roulette-status')
    expect((await post(`eventId=${eventId}`)).headers.get('location')).toBe('/roulette?error=INVALID_PARAMETER#roulette-status')
    expect((await post(`eventId=${eventId}&key=x`, { origin: 'https://evil.example' })).status).toBe(403)
    const guest = await request(app, '/api/v1/roulette/web/spin', {
      method: 'POST',
      headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' },
      body: `eventId=${eventId}&key=g`,
    })
    expect(guest.status).toBe(303)
    expect(guest.headers.get('location')).toMatch(/^\/user\/login\?callback=/)
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM coin_ledger WHERE user_id = ?`, reader.id)).toEqual({ n: 1 })
  })
})
