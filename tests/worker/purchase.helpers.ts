/**
 * Fixtures of the wallet and purchase worker tests: fresh readers with their own lots and fresh series with
 * priced episodes, so each test owns its rows whatever else ran against the same database.
 */
import { expect } from 'vitest'
import { env } from 'cloudflare:workers'
import { appFor, expectError, frEdition, read, request } from './app.ts'

export { expectError, read }
import { createDb } from '../../src/lib/server/db.ts'
import { firstRow } from '../../src/lib/server/rows.ts'
import { sessionKeys } from '../../src/features/auth/auth.server.ts'
import { signAccessToken } from '../../src/features/auth/tokens.ts'
import { randomToken } from '../../src/lib/secrets.ts'
import { walletTotals, type LedgerEntry } from '../../src/features/wallet/wallet.server.ts'
import type { CoinSource, CoinType } from '../../src/features/wallet/wallet.ts'
import type { Platform } from '../../src/lib/platform.ts'
import { readerRows } from './reader-rows.ts'
import { runInDurableObject } from 'cloudflare:test'
import { startSession } from '../../src/features/auth/session-store.server.ts'
import { DAY_MS, isoAfter } from '../../src/lib/time.ts'

export const app = appFor()
export const db = createDb(env.DB)
let seq = 0

export type Reader = { id: number; headers: Record<string, string>; sessionId?: string }

/**
 * A new account (adult unless told) with a Bearer access token of a session of its own. The token is signed here and
 * its session written straight into the reader's object, which is not woken: its first call is the test's (sign-in
 * itself is tests/worker/auth.test.ts's).
 */
export async function newReader(opts: { adult?: boolean; platform?: Platform } = {}): Promise<Reader> {
  const email = `wallet-${Date.now()}-${++seq}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const row = await db.first<{ id: number }>(
    `INSERT INTO users (email, is_adult) VALUES (?, ?) RETURNING id`,
    email,
    opts.adult === false ? 0 : 1,
  )
  const sessionId = randomToken(16)
  const now = new Date()
  const token = await signAccessToken(await sessionKeys(), row!.id, frEdition.siteUrl, now, 0, sessionId, opts.platform)
  await runInDurableObject(env.READER.getByName(String(row!.id)), (_instance, state) =>
    startSession(state.storage.sql, {
      sessionId,
      tokenHash: randomToken(16),
      version: 0,
      clientKind: 'APP',
      ip: null,
      now: now.toISOString(),
      expiresAt: isoAfter(now, DAY_MS),
    }),
  )
  return { id: row!.id, headers: { authorization: `Bearer ${token.value}` }, sessionId }
}

/**
 * A new lot of `amount` coins and its CHARGE ledger row, in one batch, as the wallet writes a grant (the ledger row's
 * description is `reason`; a PAYMENT lot's row is a COIN_PRODUCT's); returns the ledger row. `expiresAt` null: never expires.
 */
export async function grantLot(
  userId: number,
  lot: { type: CoinType; amount: number; source: CoinSource; expiresAt: string | null; ref?: string | null; reason?: string },
): Promise<LedgerEntry> {
  const ref = lot.ref ?? null
  const [, ledger] = await readerRows.batch(userId, [
    {
      sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source, ref) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      params: [userId, lot.type, lot.amount, lot.amount, lot.expiresAt, lot.source, ref],
    },
    {
      sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, product_kind, ref, description)
            VALUES (?, 'CHARGE', last_insert_rowid(), ?, ?, ?, ?, ?, ?)
            RETURNING id, kind, lot_id AS lotId, type, source, amount, ref, description, created_at AS createdAt`,
      params: [userId, lot.type, lot.source, lot.amount, lot.source === 'PAYMENT' ? 'COIN_PRODUCT' : null, ref, lot.reason ?? 'test'],
    },
  ])
  return firstRow<LedgerEntry>(ledger)!
}

/** A lot of `amount` coins (a CHARGE row with it). `expiresInDays` absent: never expires. */
export async function give(userId: number, type: CoinType, amount: number, expiresInDays?: number, source: CoinSource = 'EVENT') {
  const expiresAt = expiresInDays === undefined ? null : new Date(Date.now() + expiresInDays * 86_400_000).toISOString()
  return grantLot(userId, { type, amount, source, expiresAt })
}

export type SeriesOpts = { episodes: number; priceRent?: number | null; priceBuy?: number | null; free?: number; adult?: boolean }

/** A published series with `episodes` episodes (the first `free` free); returns the episode ids in order. */
export async function newSeries(opts: SeriesOpts): Promise<{ seriesId: number; episodeIds: number[] }> {
  const s = await db.first<{ id: number }>(
    `INSERT INTO series (title, status, genre, is_adult) VALUES (?, 'COMPLETED', 'DRAMA', ?) RETURNING id`,
    `Série test ${++seq}`,
    opts.adult ? 1 : 0,
  )
  const nos = JSON.stringify(Array.from({ length: opts.episodes }, (_, i) => i + 1))
  const rows = await db.all<{ id: number }>(
    `INSERT INTO episodes (series_id, no, title, is_free, price_rent, price_buy, published_at)
     SELECT ?, value, 'Épisode ' || value, CASE WHEN value <= ? THEN 1 ELSE 0 END, ?, ?, '2026-01-01T00:00:00.000Z' FROM json_each(?) RETURNING id`,
    s!.id,
    opts.free ?? 0,
    opts.priceRent === undefined ? 2 : opts.priceRent,
    opts.priceBuy === undefined ? 4 : opts.priceBuy,
    nos,
  )
  return { seriesId: s!.id, episodeIds: rows.map((r) => r.id).sort((a, b) => a - b) }
}

/** POST /api/v1/purchase as `reader` (no Idempotency-Key header when `key` is null). */
export function buy(reader: Pick<Reader, 'headers'>, body: unknown, key: string | null = crypto.randomUUID()) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...reader.headers }
  if (key !== null) headers['idempotency-key'] = key
  return request(app, '/api/v1/purchase', { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) })
}

export function get(reader: Pick<Reader, 'headers'> | null, path: string) {
  return request(app, path, { headers: reader?.headers ?? {} })
}

/** Everything a purchase could move for one reader: lots, ledger, purchases, ownerships, keys. */
export async function snapshot(userId: number) {
  const [lots, ledger, purchases, ownerships, keys] = await Promise.all([
    readerRows.all(userId, `SELECT id, remaining FROM coin_lots WHERE user_id = ? ORDER BY id`, userId),
    readerRows.first(userId, `SELECT count(*) AS n, coalesce(max(id), 0) AS last FROM coin_ledger WHERE user_id = ?`, userId),
    readerRows.first(userId, `SELECT count(*) AS n FROM purchases WHERE user_id = ?`, userId),
    readerRows.all(userId, `SELECT episode_id, kind, expires_at FROM ownerships WHERE user_id = ? ORDER BY id`, userId),
    readerRows.first(userId, `SELECT count(*) AS n FROM idempotency_keys WHERE user_id = ?`, userId),
  ])
  return { lots, ledger, purchases, ownerships, keys }
}

/** docs/ARCHITECTURE.md "Money" invariant: Σ remaining = Σ ledger, no lot below zero; returns the totals. */
export async function expectInvariant(userId: number) {
  const t = await walletTotals(db, userId)
  expect(t.lots).toBe(t.ledger)
  expect(t.minRemaining ?? 0).toBeGreaterThanOrEqual(0)
  return t
}

/** A raw call with any method, body and Idempotency-Key; null when the Fetch API itself refused the request. */
export async function send(reader: Reader, method: string, path: string, body?: string, k?: string | null) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...reader.headers }
  if (k) headers['idempotency-key'] = k
  try {
    return await request(app, path, { method, headers, body })
  } catch (e) {
    expect(String(e)).toMatch(/header|URL|Invalid/i) // never reached the worker
    return null
  }
}
