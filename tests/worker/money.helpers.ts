/**
 * Fixtures of the cross-kind money tests (issue 23): every way a reader opens an episode or moves coins, through
 * the app's router, and the checks that must hold whatever order concurrent requests commit in.
 */
import { expect } from 'vitest'
import { app, expectInvariant, get, read, type Reader } from './purchase.helpers.ts'
import { request } from './app.ts'
import { newProduct, paymentFor, postWebhook, signedEvent } from './payment.helpers.ts'
import { readerObject } from './reader.helpers.ts'
import { readerRows } from './reader-rows.ts'

/** POST `path` as `reader` with a JSON body and its own Idempotency-Key. */
function post(reader: Pick<Reader, 'headers'>, path: string, body: unknown, key: string = crypto.randomUUID()) {
  return request(app, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key, ...reader.headers },
    body: JSON.stringify(body),
  })
}

export const purchase = (r: Reader, kind: 'RENT' | 'POSSESSION', episodeIds: number[], key?: string) =>
  post(r, '/api/v1/purchase', { kind, episodeIds }, key)
export const ticket = (r: Reader, episodeId: number) => post(r, '/api/v1/purchase/freetime', { episodeId })
export const useGift = (r: Reader, giftId: number, episodeId?: number) =>
  post(r, `/api/v1/gift/${giftId}/use`, episodeId === undefined ? {} : { episodeId })
export const exchange = (r: Reader, amount: number) => post(r, '/api/v1/payment/mileage', { amount })
export const refund = (r: Reader, paymentId: string) => post(r, '/api/v1/payment/refund', { paymentId })

/** An answer as `status CODE` (`200 SUCCESS` for a success). */
export async function outcome(res: Response | Promise<Response>): Promise<string> {
  const r = await res
  const body = await read(r)
  return `${r.status} ${body.code ?? body.result}`
}

/** A gift of `kind` for one episode in the reader's box. */
export async function newGift(userId: number, kind: 'RENT' | 'POSSESSION', episodeId: number): Promise<number> {
  const row = await readerRows.first<{ id: number }>(
    userId,
    `INSERT INTO gifts (user_id, kind, episode_id, title) VALUES (?, ?, ?, 'Cadeau') RETURNING id`,
    userId,
    kind,
    episodeId,
  )
  return row!.id
}

/** A lot of `amount` coins with its CHARGE ledger row, expiring at `expiresAt` (any instant, past ones too). */
export async function lot(userId: number, type: 'COIN' | 'FREE_COIN' | 'BONUS' | 'MILEAGE', amount: number, expiresAt: string | null) {
  await readerRows.batch(userId, [
    {
      sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source) VALUES (?, ?, ?, ?, ?, 'EVENT')`,
      params: [userId, type, amount, amount, expiresAt],
    },
    {
      sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount) VALUES (?, 'CHARGE', last_insert_rowid(), ?, 'EVENT', ?)`,
      params: [userId, type, amount],
    },
  ])
}

/** A payment of `coins` paid coins (no bonus) credited through the sandbox webhook; its id. */
export async function paidPayment(reader: Reader, coins: number): Promise<string> {
  const paymentId = await paymentFor(reader, await newProduct({ coins, bonus: 0, price: 499 }))
  expect((await postWebhook(await signedEvent(paymentId))).status).toBe(200)
  return paymentId
}

export type Opened = { episodeId: number; type: string; coins: number; charged: number }

/** Every purchase row of the reader with the coins its USE ledger rows took. */
function opened(userId: number): Promise<Opened[]> {
  return readerRows.all<Opened>(
    userId,
    `SELECT p.episode_id AS episodeId, p.type, p.coins,
            coalesce((SELECT -sum(l.amount) FROM coin_ledger l WHERE l.user_id = p.user_id AND l.kind = 'USE' AND l.purchase_id = p.id), 0) AS charged
       FROM purchases p WHERE p.user_id = ? ORDER BY p.id`,
    userId,
  )
}

/**
 * The money invariants of one reader once every request has answered (after the reader's object woke, so expired coins
 * have left through the ledger): each episode opened at most once (no right granted or paid for while one is held) but for a
 * rental or unlock then bought for good, each
 * purchase charged exactly its price by its own USE rows and no USE row outside a purchase, Σ lots remaining =
 * ledger replay = the balance GET /api/v1/coin shows (spendable + mileage), no lot below zero. Returns the rows.
 */
export async function expectMoneyInvariants(reader: Reader): Promise<{ opened: Opened[]; balance: { total: number; mileage: number } }> {
  await readerObject(reader.id).wake(reader.id, new Date().toISOString())
  const rows = await opened(reader.id)
  // an episode opens once, or twice when a rental or an unlock of it was then bought for good (issue 12 point 4)
  const byEpisode = Map.groupBy(rows, (r) => r.episodeId)
  for (const list of byEpisode.values())
    expect(
      list.length === 1 ||
        (list.length === 2 && list[0]!.type !== 'POSSESSION' && !list[0]!.type.startsWith('POSSESSION') && list[1]!.type === 'POSSESSION'),
      `episodes opened twice: ${JSON.stringify(list)}`,
    ).toBe(true)
  for (const r of rows) expect(r.charged, `charged for ${JSON.stringify(r)}`).toBe(r.coins)
  const stray = await readerRows.first<{ n: number }>(
    reader.id,
    `SELECT count(*) AS n FROM coin_ledger WHERE user_id = ? AND kind = 'USE' AND type <> 'MILEAGE' AND purchase_id IS NULL`,
    reader.id,
  )
  expect(stray!.n).toBe(0)
  const t = await expectInvariant(reader.id)
  const balance = (await read(await get(reader, '/api/v1/coin'))).data as { total: number; mileage: number }
  expect(balance.total + balance.mileage).toBe(t.lots)
  return { opened: rows, balance }
}
