/**
 * Issue 12 on real workerd + D1:
 *
 * - point 4, buying a running rental for good: the price less what the rental cost (docs/API.md "Buying a rented
 *   episode for good"), shown by the preview, through the JSON route and the viewer's plain form; renting again
 *   stays refused; 40 upgrade requests at once charge once; bad forms never answer 5xx and move nothing;
 * - point 10, the auto-unlock cap is the server's: an automatic unlock (`auto`) adds its coins to what was spent
 *   under the reader's cap in its own batch; two tabs (concurrent requests) cannot pass it; nothing moves on refusal.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { app, buy, expectError, expectInvariant, get, give, newReader, newSeries, read, snapshot, type Reader } from './purchase.helpers.ts'
import { expectHandled, request } from './app.ts'
import { autoUnlockKey } from '../../src/features/viewer/continuous.ts'
import { isErrorCode } from '../../src/lib/errors/catalogue.ts'
import { readerRows } from './reader-rows.ts'

const form = (reader: Pick<Reader, 'headers'>, fields: Record<string, string> | string) =>
  request(app, '/api/v1/purchase/web', {
    method: 'POST',
    headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded', ...reader.headers },
    body: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(),
    redirect: 'manual',
  })

const preview = async (reader: Reader, episodeId: number) =>
  (await read(await get(reader, `/api/v1/purchase/preview?episodeId=${episodeId}`))).data
const balance = async (reader: Reader) => (await read(await get(reader, '/api/v1/coin'))).data.total as number
const ownerships = (userId: number, episodeId: number) =>
  readerRows.all<{ kind: string }>(
    userId,
    `SELECT kind FROM ownerships WHERE user_id = ? AND episode_id = ? ORDER BY kind`,
    userId,
    episodeId,
  )
const autoOn = (reader: Reader, seriesId: number, budget: number) =>
  request(app, `/api/v1/viewer/auto-unlock/${seriesId}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...reader.headers },
    body: JSON.stringify({ budget, kind: 'RENT' }),
  })
const spentOf = async (reader: Reader, seriesId: number) =>
  (await read(await get(reader, `/api/v1/viewer/auto-unlock/${seriesId}`))).data as { budget: number; spent: number; enabled: boolean }

describe('buying a running rental for good (issue 12 point 4)', () => {
  it('costs the price less the rental; the preview shows it; renting again stays refused', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 20)
    const { episodeIds } = await newSeries({ episodes: 2, priceRent: 3, priceBuy: 7 })
    const e = episodeIds[0]!
    expect((await buy(reader, { episodeIds: [e], kind: 'RENT' })).status).toBe(200)
    const p = await preview(reader, e)
    expect(p.ownership).toMatchObject({ kind: 'RENT' })
    expect(p.offers.RENT).toEqual({ single: null, remaining: null })
    expect(p.offers.POSSESSION.single).toMatchObject({ episodeIds: [e], coins: 4, credit: 3, affordable: true })
    await expectError(await buy(reader, { episodeIds: [e], kind: 'RENT' }), 409, 'RENT_PURCHASE_IMPOSSIBLE')

    const res = await buy(reader, { episodeIds: [e], kind: 'POSSESSION' })
    expect(res.status).toBe(200)
    expect((await read(res)).data.purchases).toEqual([{ episodeId: e, kind: 'POSSESSION', expiresAt: null }])
    expect(await balance(reader)).toBe(20 - 3 - 4)
    expect(await ownerships(reader.id, e)).toEqual([{ kind: 'POSSESSION' }, { kind: 'RENT' }])
    expect((await read(await get(reader, `/api/v1/viewer/${e}`))).data.access).toMatchObject({
      open: true,
      via: 'POSSESSION',
      expiresAt: null,
    })
    await expectError(await buy(reader, { episodeIds: [e], kind: 'POSSESSION' }), 409, 'EXIST_LIBRARY')
    // the coin history names the episode for each of the two payments
    const used = await readerRows.all<{ amount: number }>(
      reader.id,
      `SELECT amount FROM coin_ledger WHERE user_id = ? AND episode_id = ? AND kind = 'USE' ORDER BY id`,
      reader.id,
      e,
    )
    expect(used).toEqual([{ amount: -3 }, { amount: -4 }])
    await expectInvariant(reader.id)
  })

  it('another reader sees and changes none of it', async () => {
    const [a, b] = [await newReader(), await newReader()]
    await give(a.id, 'COIN', 10)
    await give(b.id, 'COIN', 10)
    const { episodeIds } = await newSeries({ episodes: 1, priceRent: 3, priceBuy: 7 })
    const e = episodeIds[0]!
    expect((await buy(a, { episodeIds: [e], kind: 'RENT' })).status).toBe(200)
    expect((await preview(b, e)).offers.POSSESSION.single).toMatchObject({ coins: 7, credit: 0 })
    const before = await snapshot(a.id)
    expect((await buy(b, { episodeIds: [e], kind: 'POSSESSION' })).status).toBe(200) // b pays full price
    expect(await balance(b)).toBe(3)
    expect(await snapshot(a.id)).toEqual(before)
  })

  it('40 upgrade requests at once (each its own key) charge once; the other 39 answer EXIST_LIBRARY', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 100)
    const { episodeIds } = await newSeries({ episodes: 1, priceRent: 2, priceBuy: 5 })
    const e = episodeIds[0]!
    expect((await buy(reader, { episodeIds: [e], kind: 'RENT' })).status).toBe(200)
    const answers = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const r = await buy(reader, { episodeIds: [e], kind: 'POSSESSION' })
        return r.status === 200 ? 'OK' : (await read(r)).code
      }),
    )
    expect(answers.filter((a) => a === 'OK')).toHaveLength(1)
    expect(answers.filter((a) => a === 'EXIST_LIBRARY')).toHaveLength(39)
    expect(await balance(reader)).toBe(100 - 2 - 3)
    expect(
      (await readerRows.first<{ n: number }>(
        reader.id,
        `SELECT count(*) AS n FROM purchases WHERE user_id = ? AND type = 'POSSESSION'`,
        reader.id,
      ))!.n,
    ).toBe(1)
    await expectInvariant(reader.id)
  }, 60_000)

  it('the viewer plain form: buys for good, lands back on the episode; sent again it moves nothing; a guest goes to login', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 10)
    const { episodeIds } = await newSeries({ episodes: 1, priceRent: 2, priceBuy: 5 })
    const e = episodeIds[0]!
    expect((await buy(reader, { episodeIds: [e], kind: 'RENT' })).status).toBe(200)
    const fields = { episodeId: String(e), kind: 'POSSESSION', key: crypto.randomUUID() }
    const answers = await Promise.all(Array.from({ length: 40 }, () => form(reader, fields)))
    expect(new Set(answers.map((r) => `${r.status} ${r.headers.get('location')}`))).toEqual(new Set([`303 /viewer/${e}?bought=POSSESSION`]))
    expect(await balance(reader)).toBe(10 - 2 - 3)
    // once bought, a fresh form is refused with the catalogue code, back at the form
    const again = await form(reader, { ...fields, key: crypto.randomUUID() })
    expect(again.headers.get('location')).toBe(`/viewer/${e}?error=EXIST_LIBRARY#buy-for-good`)
    const guest = await form({ headers: {} }, fields)
    expect(guest.status).toBe(303)
    expect(guest.headers.get('location')).toBe(`/user/login?callback=${encodeURIComponent(`/viewer/${e}`)}`)
    await expectInvariant(reader.id)
  })

  it('the plain form: 1,000 generated bad forms never answer 5xx, every error a catalogue code, nothing moves', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 1) // short of every price: a well-formed form is refused too
    const { episodeIds } = await newSeries({ episodes: 1, priceRent: 2, priceBuy: 5 })
    const before = await snapshot(reader.id)
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.integer().map(String),
      fc.constantFrom('', String(episodeIds[0]), '0', '-1', '1e3'),
    )
    const fields = fc.record(
      { episodeId: value, kind: fc.oneof(fc.constantFrom('RENT', 'POSSESSION', 'rent', ''), fc.string({ maxLength: 12 })), key: value },
      { requiredKeys: [] },
    )
    const bodies = fc.oneof(
      fields.map((f) => new URLSearchParams(f as Record<string, string>).toString()),
      fc.string({ maxLength: 200 }),
    )
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const res = await form(reader, body)
        expect(res.status).toBeLessThan(500)
        if (res.status === 303) {
          const location = res.headers.get('location')!
          expect(location).not.toMatch(/bought=/) // nothing this reader can afford was generated
          const code = new URL(location, 'http://x').searchParams.get('error')
          expect(isErrorCode(code ?? ''), location).toBe(true)
        } else await expectHandled(res)
      }),
      { numRuns: 1000 },
    )
    expect(await snapshot(reader.id)).toEqual(before)
  }, 120_000)
})

describe('the auto-unlock cap is the server’s (issue 12 point 10)', () => {
  it('counts each automatic unlock against the cap in its batch; past the cap nothing moves', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 50)
    const s = await newSeries({ episodes: 4, priceRent: 2, priceBuy: 4 })
    const unlock = (e: number) => buy(reader, { episodeIds: [e], kind: 'RENT', auto: true }, autoUnlockKey(reader.id, e))
    // no opt-in: not made
    await expectError(await unlock(s.episodeIds[0]!), 409, 'POSSESSION_PURCHASE_IMPOSSIBLE')
    expect((await autoOn(reader, s.seriesId, 5)).status).toBe(200)
    expect((await unlock(s.episodeIds[0]!)).status).toBe(200)
    expect((await unlock(s.episodeIds[1]!)).status).toBe(200)
    expect(await spentOf(reader, s.seriesId)).toMatchObject({ budget: 5, spent: 4 })
    const before = await snapshot(reader.id)
    await expectError(await unlock(s.episodeIds[2]!), 409, 'POSSESSION_PURCHASE_IMPOSSIBLE')
    expect(await snapshot(reader.id)).toEqual(before)
    expect(await spentOf(reader, s.seriesId)).toMatchObject({ spent: 4 })
    // a purchase made by hand is not counted, and is not capped
    expect((await buy(reader, { episodeIds: [s.episodeIds[2]!], kind: 'RENT' })).status).toBe(200)
    expect(await spentOf(reader, s.seriesId)).toMatchObject({ spent: 4 })
    // raising the cap lets the next one through
    expect((await autoOn(reader, s.seriesId, 6)).status).toBe(200)
    expect((await unlock(s.episodeIds[3]!)).status).toBe(200)
    expect(await spentOf(reader, s.seriesId)).toMatchObject({ budget: 6, spent: 6 })
    await expectError(await buy(reader, { episodeIds: s.episodeIds.slice(0, 2), kind: 'RENT', auto: true }), 400, 'INVALID_PARAMETER')
    await expectInvariant(reader.id)
  })

  it('two tabs at once with room for one: one unlock is made, the other refused; 40 at once stop at the cap', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 200)
    const s = await newSeries({ episodes: 42, priceRent: 2, priceBuy: 4 })
    await autoOn(reader, s.seriesId, 3)
    const unlock = (e: number) => buy(reader, { episodeIds: [e], kind: 'RENT', auto: true }, autoUnlockKey(reader.id, e))
    const two = await Promise.all([unlock(s.episodeIds[0]!), unlock(s.episodeIds[1]!)])
    expect(two.map((r) => r.status).sort()).toEqual([200, 409])
    expect(await spentOf(reader, s.seriesId)).toMatchObject({ spent: 2 })
    expect(await balance(reader)).toBe(198)

    const other = await newSeries({ episodes: 40, priceRent: 2, priceBuy: 4 })
    await autoOn(reader, other.seriesId, 20)
    const many = await Promise.all(other.episodeIds.map(async (e) => (await unlock(e)).status))
    expect(many.filter((x) => x === 200)).toHaveLength(10)
    expect(many.filter((x) => x === 409)).toHaveLength(30)
    expect(await spentOf(reader, other.seriesId)).toMatchObject({ budget: 20, spent: 20 })
    expect(await balance(reader)).toBe(178)
    // another reader's cap is their own
    const b = await newReader()
    expect(await spentOf(b, other.seriesId)).toMatchObject({ enabled: false, spent: 0 })
    await expectInvariant(reader.id)
  }, 60_000)
})
