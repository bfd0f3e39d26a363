/**
 * The monthly spending limit (issue 37 point 5) on real workerd + D1 + the reader's Durable Object: lowered at once,
 * raised (or lifted) only after 24 hours; a purchase, rental or automatic unlock past it is refused with
 * SPENDING_LIMIT_REACHED and a message that says when the month resets, and moves nothing; 40 purchases at once stop
 * exactly at it; last month's spending does not count; bad bodies and forms change nothing.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
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
  snapshot,
  type Reader,
} from './purchase.helpers.ts'
import { expectHandled, frEdition, request } from './app.ts'
import { execInReader } from './reader.helpers.ts'
import { purchaseEpisodes } from '../../src/features/purchase/purchase.server.ts'
import { spendingMonth } from '../../src/features/spending/spending.ts'
import type { Spending } from '../../src/features/spending/spending.server.ts'
import { DAY_MS as RAISE_DELAY_MS } from '../../src/lib/time.ts'
import { formatDate } from '../../src/lib/i18n/dates.ts'
import { autoUnlockKey } from '../../src/features/viewer/continuous.ts'

const send = (reader: Pick<Reader, 'headers'> | null, method: string, body?: string) =>
  request(app, '/api/v1/user/spending-limit', {
    method,
    headers: { 'content-type': 'application/json', ...(reader?.headers ?? {}) },
    ...(body === undefined ? {} : { body }),
  })
const setLimit = (reader: Reader, coins: number | null) => send(reader, 'PUT', JSON.stringify({ coins }))
const spending = async (reader: Reader) => (await read(await send(reader, 'GET'))).data as Spending
const form = (reader: Pick<Reader, 'headers'> | null, fields: Record<string, string>) =>
  request(app, '/api/v1/user/web/spending-limit', {
    method: 'POST',
    headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded', ...(reader?.headers ?? {}) },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  })
const limitRow = async (reader: Reader) =>
  (await execInReader(reader.id, `SELECT coins, next_coins, next_at FROM spending_limit`))[0] ?? null
/** The waiting raise's day passes (the object's clock is the real one). */
const dayPasses = (reader: Reader) =>
  execInReader(reader.id, `UPDATE spending_limit SET next_at = ? WHERE next_at IS NOT NULL`, new Date(Date.now() - 1000).toISOString())

describe('the monthly spending limit', () => {
  it('applies a lower limit at once, a higher one or none only a day after it was asked for', async () => {
    const reader = await newReader()
    await expectError(await send(null, 'GET'), 401, 'NOT_LOGIN_USER')
    const month = spendingMonth(new Date(), frEdition.timeZone)
    expect(await spending(reader)).toEqual({ limit: null, next: null, spent: 0, ...month, bySeries: [] })

    // from none, any limit is a lowering: at once
    expect((await read(await setLimit(reader, 10))).data).toEqual({ limit: 10, next: null })
    // a raise waits a day from the request
    const asked = Date.now()
    const raised = (await read(await setLimit(reader, 30))).data as Spending
    expect(raised.limit).toBe(10)
    expect(raised.next!.limit).toBe(30)
    expect(Date.parse(raised.next!.at) - asked).toBeGreaterThanOrEqual(RAISE_DELAY_MS - 1000)
    expect(Date.parse(raised.next!.at) - asked).toBeLessThanOrEqual(RAISE_DELAY_MS + 60_000)
    // asking for the limit in force again cancels the raise; a lower one applies at once and drops it
    expect((await read(await setLimit(reader, 10))).data).toEqual({ limit: 10, next: null })
    expect((await read(await setLimit(reader, 30))).data).toMatchObject({ limit: 10, next: { limit: 30 } })
    expect((await read(await setLimit(reader, 4))).data).toEqual({ limit: 4, next: null })
    // lifting it is a raise too
    expect((await read(await setLimit(reader, null))).data).toMatchObject({ limit: 4, next: { limit: null } })
    expect(await spending(reader)).toMatchObject({ limit: 4, next: { limit: null } })
    await dayPasses(reader)
    expect(await spending(reader)).toMatchObject({ limit: null, next: null })
    expect((await read(await setLimit(reader, 0))).data).toEqual({ limit: 0, next: null })
    expect((await read(await setLimit(reader, 8))).data).toMatchObject({ limit: 0, next: { limit: 8 } })
    await dayPasses(reader)
    expect(await spending(reader)).toMatchObject({ limit: 8, next: null })
  })

  it('refuses a purchase, a rental or an automatic unlock past it, moving nothing, with the reset date in the message', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 100)
    const { seriesId, episodeIds } = await newSeries({ episodes: 6, priceRent: 2, priceBuy: 4 })
    await setLimit(reader, 9)
    expect((await buy(reader, { episodeIds: episodeIds.slice(0, 2), kind: 'POSSESSION' })).status).toBe(200)
    const before = await snapshot(reader.id)
    // 8 spent: a purchase for good of 4 passes 9, and so do two rentals together (all or nothing)
    const refused = await buy(reader, { episodeIds: [episodeIds[2]], kind: 'POSSESSION' })
    const { message } = await read(refused.clone())
    await expectError(refused, 409, 'SPENDING_LIMIT_REACHED')
    expect(message).toContain(formatDate(spendingMonth(new Date(), frEdition.timeZone).resetsAt, frEdition))
    expect(message).toMatch(/limite de dépenses mensuelle/)
    await expectError(await buy(reader, { episodeIds: episodeIds.slice(2, 4), kind: 'RENT' }), 409, 'SPENDING_LIMIT_REACHED')
    // an automatic unlock within its own cap is still past the month's limit
    await request(app, `/api/v1/viewer/auto-unlock/${seriesId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...reader.headers },
      body: JSON.stringify({ budget: 50, kind: 'POSSESSION' }),
    })
    const auto = await buy(
      reader,
      { episodeIds: [episodeIds[2]], kind: 'POSSESSION', auto: true },
      autoUnlockKey(reader.id, episodeIds[2]!),
    )
    await expectError(auto, 409, 'SPENDING_LIMIT_REACHED')
    expect(await snapshot(reader.id)).toEqual(before)
    // one rental of 2 would pass too (8 + 2 > 9); once a raise to 20 has waited its day, the automatic rental goes through
    await expectError(await buy(reader, { episodeIds: [episodeIds[2]], kind: 'RENT' }), 409, 'SPENDING_LIMIT_REACHED')
    await setLimit(reader, 20)
    await dayPasses(reader)
    const rented = await buy(reader, { episodeIds: [episodeIds[2]], kind: 'RENT', auto: true }, autoUnlockKey(reader.id, episodeIds[2]!))
    expect(rented.status).toBe(200)
    expect(await spending(reader)).toMatchObject({ limit: 20, spent: 10, bySeries: [{ seriesId, coins: 10 }] })
    await expectInvariant(reader.id)
  })

  it('40 purchases at once stop exactly at the limit', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 500)
    const { seriesId, episodeIds } = await newSeries({ episodes: 40, priceRent: 3, priceBuy: 5 })
    await setLimit(reader, 50)
    const answers = await Promise.all(episodeIds.map((e) => buy(reader, { episodeIds: [e], kind: 'POSSESSION' })))
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(10)
    expect(statuses.filter((s) => s === 409)).toHaveLength(30)
    for (const r of answers.filter((a) => a.status === 409)) expect((await read(r)).code).toBe('SPENDING_LIMIT_REACHED')
    const month = await spending(reader)
    expect(month).toMatchObject({ limit: 50, spent: 50, bySeries: [{ seriesId, coins: 50 }] })
    expect(month.bySeries[0]!.title).toEqual(expect.any(String))
    expect((await read(await get(reader, '/api/v1/coin'))).data.total).toBe(450)
    await expectInvariant(reader.id)
  }, 60_000)

  it("last month's spending does not count; this month's is shown by series, most first", async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 100)
    const a = await newSeries({ episodes: 3, priceRent: 2, priceBuy: 4 })
    const b = await newSeries({ episodes: 3, priceRent: 2, priceBuy: 7 })
    const month = spendingMonth(new Date(), frEdition.timeZone)
    const lastMonth = new Date(Date.parse(month.since) - 3_600_000)
    await purchaseEpisodes(
      db,
      {
        userId: reader.id,
        request: { episodeIds: b.episodeIds.slice(0, 2), kind: 'POSSESSION' },
        claim: { userId: reader.id, key: crypto.randomUUID(), scope: 'test', requestHash: 'h' },
        rentalHours: 72,
        ageRules: frEdition,
        timeZone: frEdition.timeZone,
      },
      lastMonth,
    )
    await setLimit(reader, 10)
    expect((await buy(reader, { episodeIds: [a.episodeIds[0]], kind: 'RENT' })).status).toBe(200)
    expect((await buy(reader, { episodeIds: [b.episodeIds[2]], kind: 'POSSESSION' })).status).toBe(200)
    expect(await spending(reader)).toMatchObject({
      limit: 10,
      spent: 9,
      bySeries: [
        { seriesId: b.seriesId, coins: 7 },
        { seriesId: a.seriesId, coins: 2 },
      ],
    })
    await expectError(await buy(reader, { episodeIds: [a.episodeIds[1]], kind: 'RENT' }), 409, 'SPENDING_LIMIT_REACHED')
  })

  it('the /setting form: empty for none, a refusal back at the field; a guest signs in first', async () => {
    const reader = await newReader()
    const saved = await form(reader, { coins: ' 25 ' })
    expect(saved.status).toBe(303)
    expect(saved.headers.get('location')).toBe('/setting?saved=spending#spending')
    expect(await limitRow(reader)).toEqual({ coins: 25, next_coins: null, next_at: null })
    await form(reader, { coins: '' })
    expect(await limitRow(reader)).toMatchObject({ coins: 25, next_coins: null, next_at: expect.any(String) })
    for (const coins of ['abc', '-3', '2.5', '1e3', '1000001']) {
      const refused = await form(reader, { coins })
      expect(refused.headers.get('location')).toBe('/setting?error=INVALID_PARAMETER')
    }
    expect(await limitRow(reader)).toMatchObject({ coins: 25, next_coins: null })
    const guest = await form(null, { coins: '5' })
    expect(guest.headers.get('location')).toMatch(/^\/user\/login\?/)
  })

  it('never answers 5xx to 1,000 generated bodies and 200 forms; only valid ones change the limit', async () => {
    const reader = await newReader()
    await setLimit(reader, 7)
    const valid = (v: unknown) =>
      typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      Object.keys(v).length === 1 &&
      'coins' in v &&
      (v.coins === null || (Number.isInteger(v.coins) && (v.coins as number) >= 0 && (v.coins as number) <= 1_000_000))
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
          fc
            .record({ coins: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null), fc.boolean()) })
            .map((v) => JSON.stringify(v)),
        ),
        async (body) => {
          let parsed: unknown
          try {
            parsed = JSON.parse(body)
          } catch {
            parsed = undefined
          }
          if (valid(parsed)) return
          const res = await send(reader, 'PUT', body)
          await expectHandled(res)
          expect(res.status).toBe(400)
        },
      ),
      { numRuns: 1000 },
    )
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 14 }), async (coins) => {
        if (/^\s*\d*\s*$/.test(coins) && (coins.trim() === '' || Number(coins) <= 1_000_000)) return
        const res = await form(reader, { coins })
        expect(res.headers.get('location')).toBe('/setting?error=INVALID_PARAMETER')
      }),
      { numRuns: 200 },
    )
    expect(await limitRow(reader)).toEqual({ coins: 7, next_coins: null, next_at: null })
  }, 120_000)
})
