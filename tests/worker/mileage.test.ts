/**
 * POST /api/v1/payment/mileage on real workerd + D1 (docs/API.md, spec §5/§9: units of the edition's
 * mileagePerCoin, at least mileageMinimum, exchanged coins last 30 days): refusals, the lots drawn, the
 * FREE_COIN lot granted, idempotent replay, concurrency, the wallet invariant after each, bad bodies.
 */
import { describe, expect, it } from 'vitest'
import { app, expectError, expectInvariant, give, newReader, read, type Reader } from './purchase.helpers.ts'
import { frEdition, request } from './app.ts'
import { exchangeMileage } from '../../src/features/mileage/mileage.server.ts'
import { requestHash } from '../../src/features/wallet/idempotency.ts'
import { readerRows } from './reader-rows.ts'
import { withMoneyFaultAt } from './faults.ts'

function exchange(reader: Pick<Reader, 'headers'> | null, body: unknown, key: string | null = crypto.randomUUID()) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(reader?.headers ?? {}) }
  if (key !== null) headers['idempotency-key'] = key
  return request(app, '/api/v1/payment/mileage', { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) })
}

async function moved(userId: number) {
  return readerRows.first<{ lots: number; ledger: number; keys: number; mileage: number }>(
    userId,
    `SELECT (SELECT count(*) FROM coin_lots WHERE user_id = ?1) AS lots, (SELECT count(*) FROM coin_ledger WHERE user_id = ?1) AS ledger,
            (SELECT count(*) FROM idempotency_keys WHERE user_id = ?1) AS keys,
            (SELECT coalesce(sum(remaining), 0) FROM coin_lots WHERE user_id = ?1 AND type = 'MILEAGE') AS mileage`,
    userId,
  )
}

describe('POST /api/v1/payment/mileage', () => {
  it('the edition decides the rate: 200 points per coin, minimum 3000', () => {
    expect(frEdition.mileagePerCoin).toBe(200)
    expect(frEdition.mileageMinimum).toBe(3000)
  })

  it('draws mileage earliest expiry first and grants amount/200 FREE_COIN for 30 days (source MILEAGE)', async () => {
    const reader = await newReader()
    await give(reader.id, 'MILEAGE', 1000, 5)
    await give(reader.id, 'MILEAGE', 3000)
    await give(reader.id, 'MILEAGE', 2000, 2)
    const res = await exchange(reader, { amount: 3400 })
    expect(res.status).toBe(200)
    const { data } = await read(res)
    expect(data.coin).toMatchObject({ freeCoin: 17, mileage: 2600, total: 17 })
    const lots = await readerRows.all<{ type: string; amount: number; remaining: number; source: string; expires_at: string | null }>(
      reader.id,
      `SELECT type, amount, remaining, source, expires_at FROM coin_lots WHERE user_id = ? ORDER BY id`,
      reader.id,
    )
    expect(lots.map((l) => [l.type, l.remaining])).toEqual([
      ['MILEAGE', 0],
      ['MILEAGE', 2600],
      ['MILEAGE', 0],
      ['FREE_COIN', 17],
    ])
    expect(lots[3]!.source).toBe('MILEAGE')
    expect(Math.abs(Date.parse(lots[3]!.expires_at!) - Date.now() - 30 * 86_400_000)).toBeLessThan(60_000)
    const ledger = await readerRows.all<{ kind: string; type: string; source: string; amount: number }>(
      reader.id,
      `SELECT kind, type, source, amount FROM coin_ledger WHERE user_id = ? ORDER BY id`,
      reader.id,
    )
    expect(ledger.slice(3)).toEqual([
      { kind: 'USE', type: 'MILEAGE', source: 'MILEAGE', amount: -2000 },
      { kind: 'USE', type: 'MILEAGE', source: 'MILEAGE', amount: -1000 },
      { kind: 'USE', type: 'MILEAGE', source: 'MILEAGE', amount: -400 },
      { kind: 'CHARGE', type: 'FREE_COIN', source: 'MILEAGE', amount: 17 },
    ])
    await expectInvariant(reader.id)
    // the exchange shows on the mileage history page
    const hist = await read(await request(app, '/api/v1/coin/history?kind=MILEAGE', { headers: reader.headers }))
    expect(hist.data.items.filter((i: { source: string }) => i.source === 'MILEAGE')).toHaveLength(3)
  })

  it('EXCHANGE_MILEAGE_INSUFFICIENT below the minimum or off the 200 step; MILEAGE_INSUFFICIENT beyond the balance', async () => {
    const reader = await newReader()
    await give(reader.id, 'MILEAGE', 3600)
    const before = await moved(reader.id)
    for (const amount of [0, -200, 200, 2800, 3100, 3001])
      await expectError(await exchange(reader, { amount }), 400, 'EXCHANGE_MILEAGE_INSUFFICIENT')
    await expectError(await exchange(reader, { amount: 3800 }), 402, 'MILEAGE_INSUFFICIENT')
    expect(await moved(reader.id)).toEqual(before)
    await expectInvariant(reader.id)
  })

  it('expired mileage does not count', async () => {
    const reader = await newReader()
    await readerRows.batch(reader.id, [
      {
        sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source) VALUES (?, 'MILEAGE', 9000, 9000, '2000-01-01T00:00:00.000Z', 'EVENT')`,
        params: [reader.id],
      },
      {
        sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount) VALUES (?, 'CHARGE', last_insert_rowid(), 'MILEAGE', 'EVENT', 9000)`,
        params: [reader.id],
      },
    ])
    await expectError(await exchange(reader, { amount: 3000 }), 402, 'MILEAGE_INSUFFICIENT')
    await expectInvariant(reader.id)
  })

  it('replays the first answer for the same key and body; 409 for another body; nothing moves twice', async () => {
    const reader = await newReader()
    await give(reader.id, 'MILEAGE', 10_000)
    const key = crypto.randomUUID()
    const first = await exchange(reader, { amount: 3000 }, key)
    // the key is looked up inside the exchange's one call to the reader's object, not before it
    expect(first.headers.get('x-reader-calls')).toBe('1')
    const firstBody = await first.text()
    const again = await exchange(reader, { amount: 3000 }, key)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.text()).toBe(firstBody)
    await expectError(await exchange(reader, { amount: 3200 }, key), 409, 'IDEMPOTENCY_KEY_REUSED')
    expect(await moved(reader.id)).toMatchObject({ mileage: 7000, keys: 1 })
    await expectInvariant(reader.id)
  })

  it('the same key sent 10 times at once exchanges once', async () => {
    const reader = await newReader()
    await give(reader.id, 'MILEAGE', 30_000)
    const key = crypto.randomUUID()
    const results = await Promise.all(Array.from({ length: 10 }, () => exchange(reader, { amount: 3000 }, key)))
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200))
    expect(await moved(reader.id)).toMatchObject({ mileage: 27_000, keys: 1 })
    await expectInvariant(reader.id)
  })

  it('20 concurrent exchanges against mileage for 3: exactly 3 succeed, the rest MILEAGE_INSUFFICIENT', async () => {
    const reader = await newReader()
    await give(reader.id, 'MILEAGE', 5000, 10)
    await give(reader.id, 'MILEAGE', 4000)
    await give(reader.id, 'MILEAGE', 1000, 3)
    const results = await Promise.all(Array.from({ length: 20 }, () => exchange(reader, { amount: 3000 })))
    const codes = await Promise.all(results.map(async (r) => (r.status === 200 ? 'OK' : (await read(r)).code)))
    expect(codes.filter((c) => c === 'OK')).toHaveLength(3)
    expect(codes.filter((c) => c === 'MILEAGE_INSUFFICIENT')).toHaveLength(17)
    const t = await expectInvariant(reader.id)
    expect(t.minRemaining).toBeGreaterThanOrEqual(0)
    expect(await moved(reader.id)).toMatchObject({ mileage: 1000 })
    expect(
      (await readerRows.first<{ c: number }>(
        reader.id,
        `SELECT sum(remaining) AS c FROM coin_lots WHERE user_id = ? AND type = 'FREE_COIN'`,
        reader.id,
      ))!.c,
    ).toBe(45)
  })

  it('NOT_LOGIN_USER for a guest; INVALID_PARAMETER without a key or with a non-integer amount', async () => {
    await expectError(await exchange(null, { amount: 3000 }), 401, 'NOT_LOGIN_USER')
    const reader = await newReader()
    await give(reader.id, 'MILEAGE', 5000)
    await expectError(await exchange(reader, { amount: 3000 }, null), 400, 'INVALID_PARAMETER')
    await expectError(await exchange(reader, { amount: 3000 }, 'x'.repeat(256)), 400, 'INVALID_PARAMETER')
    for (const bad of [{}, { amount: '3000' }, { amount: 3000.5 }, { amount: 1e15 }, { amount: null }, '[]', '{']) {
      await expectError(await exchange(reader, bad), 400, 'INVALID_PARAMETER')
    }
    expect(await moved(reader.id)).toMatchObject({ mileage: 5000, keys: 0 })
  })

  it('1,000 bad bodies: never a 5xx, nothing moves', async () => {
    const reader = await newReader()
    await give(reader.id, 'MILEAGE', 2000)
    const junk = (i: number): string => {
      const pick = [
        () => JSON.stringify({ amount: -i }),
        () => JSON.stringify({ amount: i + 0.5 }),
        () => JSON.stringify({ amount: String(i) }),
        () => JSON.stringify({ amount: 3000 + i }),
        () => JSON.stringify({ amount: 200 * (15 + i) }),
        () => JSON.stringify({ amount: [3000] }),
        () => JSON.stringify({ amount: { n: 3000 } }),
        () => `{"amount": 1e${i % 400}}`,
        () => String.fromCharCode(...Array.from({ length: i % 40 }, (_, k) => (k * 17 + i) % 256)),
        () => 'null',
      ]
      return pick[i % pick.length]!()
    }
    for (let start = 0; start < 1000; start += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, (_, k) => exchange(reader, junk(start + k))))
      for (const res of batch) {
        expect(res.status).toBeLessThan(500)
        expect(res.status).not.toBe(200)
      }
    }
    expect(await moved(reader.id)).toMatchObject({ mileage: 2000, keys: 0, lots: 1, ledger: 1 })
    await expectInvariant(reader.id)
  })

  it('a failure injected at each statement of the exchange leaves no partial state (docs/QUALITY.md faults)', async () => {
    const reader = await newReader()
    await give(reader.id, 'MILEAGE', 1000, 3)
    await give(reader.id, 'MILEAGE', 1000, 5)
    await give(reader.id, 'MILEAGE', 2000)
    const state = () =>
      readerRows.all(
        reader.id,
        `SELECT id, remaining FROM coin_lots WHERE user_id = ?1 UNION ALL SELECT -id, amount FROM coin_ledger WHERE user_id = ?1 ORDER BY 1`,
        reader.id,
      )
    const before = await state()
    const rate = { mileagePerCoin: 200, mileageMinimum: 3000 }
    const claim = {
      userId: reader.id,
      key: 'fault-key',
      scope: 'POST /payment/mileage',
      requestHash: await requestHash('POST /payment/mileage', '{"amount":3000}'),
    }
    const statements = 3 * 2 + 3 // three lots drawn (update + ledger each), new lot, its ledger row, idempotency row
    for (let at = 0; at < statements; at++) {
      await expect(withMoneyFaultAt(at, () => exchangeMileage({ userId: reader.id, amount: 3000, rate, claim }))).rejects.toThrow()
      expect(await state()).toEqual(before)
      expect(await moved(reader.id)).toMatchObject({ keys: 0 })
    }
    const done = await exchangeMileage({ userId: reader.id, amount: 3000, rate, claim })
    expect(done.coin).toMatchObject({ freeCoin: 15, mileage: 1000 })
    await expectInvariant(reader.id)
  })
})
