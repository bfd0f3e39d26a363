/**
 * Coupon redemption (docs/API.md `POST /api/v1/coupon/code`; docs/ARCHITECTURE.md "Money": every grant is a lot and
 * its CHARGE ledger row). The coupon and its global quantity (`coupons.used_count` against `stock`) are shared (D1);
 * the redemption, the lot, the ledger row and the tickets are the reader's money rows (`moneyDb`, issue 38). A
 * redemption is two steps: a conditional claim of one unit on the coupon, then the reader's money batch; a money
 * batch that throws gives the unit back (`giveBackUnit`).
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db, Statement } from '../../lib/server/db.ts'
import { flag, type Cols, type Flag } from '../../lib/server/rows.ts'
import {
  checkCoupon,
  checkDownload,
  couponGrant,
  couponState,
  type Coupon,
  type CouponCreateRequest,
  type CouponGrant,
  type DownloadableCoupon,
  type RewardType,
} from './coupon.ts'
import { type Platform } from '../../lib/platform.ts'
import { checkLimits } from '../auth/limits.server.ts'
import { countAttempt } from '../auth/auth.server.ts'
import { decide, moneyDb } from '../reader/money-db.server.ts'
import type { MoneyRun } from '../reader/money-store.server.ts'

/** Coupon codes an account may try in an hour (a reader types one or two). */
const COUPON_CODE_TRIES = 30

/** How often a redemption re-reads after a concurrent change refused its batch (each refusal is another's commit). */
const REDEEM_ATTEMPTS = 5

export type CouponReward = { reward: { type: RewardType; amount: number } }

const COUPON_COLUMNS = `id, type, minimum_amount AS minimumAmount, starts_at AS startsAt, expires_at AS expiresAt, platform,
  reward_type AS rewardType, reward_amount AS rewardAmount, reward_lot_type AS rewardLotType,
  reward_expires_days AS rewardExpiresDays, stock, used_count AS usedCount`
type CouponRow = Cols<
  'coupons',
  | 'id'
  | 'type'
  | 'minimum_amount'
  | 'starts_at'
  | 'expires_at'
  | 'platform'
  | 'reward_type'
  | 'reward_amount'
  | 'reward_lot_type'
  | 'reward_expires_days'
  | 'stock'
  | 'used_count'
>

/**
 * Claims one unit of coupon `couponId` (shared, one conditional statement): `used_count + 1` while a unit is left
 * and the coupon has not expired at `nowIso`. False when it changed nothing (sold out or expired meanwhile).
 */
async function claimUnit(db: Db, couponId: number, nowIso: string): Promise<boolean> {
  const changed = await db.run(
    `UPDATE coupons SET used_count = used_count + 1
      WHERE id = ? AND (stock IS NULL OR used_count < stock) AND (expires_at IS NULL OR expires_at > ?)`,
    couponId,
    nowIso,
  )
  return changed === 1
}

/**
 * Gives back a unit `claimUnit` took, after the money batch it was for threw (one conditional statement). A D1 batch
 * that throws wrote nothing, so the unit would otherwise count a redemption that does not exist.
 */
async function giveBackUnit(db: Db, couponId: number): Promise<void> {
  await db.run(`UPDATE coupons SET used_count = used_count - 1 WHERE id = ? AND used_count > 0`, couponId)
}

/** What the reader's object answers for a redemption: written, the reader holds the coupon already, or a failed batch's text. */
export type RedeemOutcome = { redeemed: true } | { held: true } | { ok: false; error: string }

/**
 * A redemption inside the reader's object (procedures.server.ts): when the reader holds no redemption of the coupon,
 * `statements` (the redemption row and its reward) in one batch, with nothing in between.
 */
export function redeemOnce(run: MoneyRun, order: { userId: number; couponId: number; statements: Statement[] }): RedeemOutcome {
  const read = run([
    { sql: `SELECT 1 AS one FROM coupon_redemptions WHERE user_id = ? AND coupon_id = ?`, params: [order.userId, order.couponId] },
  ])
  if (!read.ok) return read
  if (read.results[0]!.results.length > 0) return { held: true }
  const written = run(order.statements)
  return written.ok ? { redeemed: true } : written
}

/**
 * The reader's side of a redemption whose unit is claimed (`redeemOnce`, one call to their object): true when written;
 * else the unit is given back (`giveBackUnit`) and false when the reader redeemed the coupon meanwhile (the caller reads
 * and checks again, which names the cause), or a throw when the batch failed.
 */
async function redeemed(db: Db, userId: number, couponId: number, statements: Statement[]): Promise<boolean> {
  const outcome = await decide(userId, 'redeemOnce', { userId, couponId, statements })
  if ('redeemed' in outcome) return true
  await giveBackUnit(db, couponId)
  if ('error' in outcome) throw new Error(outcome.error)
  return false
}

/**
 * Redeems the coupon whose code is `code` (already normalized; the column compares case-insensitively) for
 * the reader on `platform`. Rules: `checkCoupon`, then `couponGrant`. Two steps, in this order:
 *
 * 1. the claim of one unit on the shared coupon (`claimUnit`): it changes nothing when the last unit went or the
 *    coupon expired since the read, and the coupon is read and checked again;
 * 2. the reader's money batch, decided in their object (`redeemOnce`): the redemption row — none while the reader
 *    holds one (UNIQUE (user_id, coupon_id) holds it in the write too) — and the reward: a lot (source COUPON, ref the coupon id)
 *    and its CHARGE ledger row, or roulette tickets (event_tickets, source COUPON).
 *
 * A money batch that refused or threw wrote nothing: the unit is given back (`giveBackUnit`) and, for a refusal, the coupon is
 * read and checked again, which now names the cause (ALREADY_USED_COUPON, SOLD_OUT_COUPON, EXPIRED_COUPON). A worker
 * stopped between the steps leaves a unit claimed without a redemption: the coupon serves one reader fewer, never
 * one more, and no reader's money moved. FREQUENT_REQUEST past the address's or the account's allowance of tries
 * (issue 34 point 6), before the code is looked at.
 */
export async function redeemCoupon(
  db: Db,
  input: { userId: number; code: string; platform: Platform; client: { ip: string | null; issuer: string } },
  now = new Date(),
): Promise<CouponReward> {
  const { userId, code, platform } = input
  const nowIso = now.toISOString()
  const money = moneyDb(db, userId)
  // codes are not guessed: 10 a minute per address, COUPON_CODE_TRIES an hour per account (one counting statement)
  await checkLimits('coupon-code', input.client)
  if ((await countAttempt(db, `coupon:${userId}`, 3600, now)) > COUPON_CODE_TRIES) throw new AppError('FREQUENT_REQUEST')
  for (let attempt = 1; ; attempt++) {
    const coupon: Coupon | null = await db.first<CouponRow>(`SELECT ${COUPON_COLUMNS} FROM coupons WHERE code = ?`, code)
    const used = coupon
      ? await money.first<{ one: 1 }>(`SELECT 1 AS one FROM coupon_redemptions WHERE user_id = ? AND coupon_id = ?`, userId, coupon.id)
      : null
    const verdict = checkCoupon(coupon, platform, used !== null, now)
    if (!verdict.ok) throw new AppError(verdict.code)
    const c = coupon!
    const grant = couponGrant(c, now)
    if (await claimUnit(db, c.id, nowIso)) {
      const statements: { sql: string; params: unknown[] }[] = [
        {
          sql: `INSERT INTO coupon_redemptions (coupon_id, user_id, used_at, created_at) VALUES (?, ?, ?, ?)`,
          params: [c.id, userId, nowIso, nowIso],
        },
        ...grantStatements(userId, grant, `coupon:${c.id}`, `coupon ${code}`, nowIso),
      ]
      if (await redeemed(db, userId, c.id, statements))
        return { reward: { type: c.rewardType, amount: grant.kind === 'LOT' ? grant.amount : grant.count } }
    }
    // Sold out, expired or redeemed meanwhile: read and check again.
    if (attempt >= REDEEM_ATTEMPTS) throw new AppError('TOO_MANY_REQUESTS')
  }
}

/** The statements granting a coupon's reward: a lot (source COUPON) and its CHARGE ledger row, or roulette tickets. */
function grantStatements(
  userId: number,
  grant: CouponGrant,
  ref: string,
  description: string,
  nowIso: string,
): { sql: string; params: unknown[] }[] {
  if (grant.kind === 'LOT') {
    return [
      {
        sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source, ref, created_at) VALUES (?, ?, ?, ?, ?, 'COUPON', ?, ?)`,
        params: [userId, grant.lotType, grant.amount, grant.amount, grant.expiresAt, ref, nowIso],
      },
      {
        sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, ref, description, created_at)
              VALUES (?, 'CHARGE', last_insert_rowid(), ?, 'COUPON', ?, ?, ?, ?)`,
        params: [userId, grant.lotType, grant.amount, ref, description, nowIso],
      },
    ]
  }
  return [
    {
      sql: `INSERT INTO event_tickets (user_id, kind, source, ref, expires_at, created_at) SELECT ?, 'ROULETTE', 'COUPON', ?, ?, ? FROM json_each(?)`,
      params: [userId, ref, grant.expiresAt, nowIso, JSON.stringify(Array.from({ length: grant.count }, () => 0))],
    },
  ]
}

/**
 * Downloadable coupons shown on /coupon (live ones, for the caller's platform), with what the reader holds: the
 * coupons (shared), then the reader's redemptions of those (their money rows; no query for a guest or no coupon).
 */
export async function downloadableCoupons(
  db: Db,
  userId: number | null,
  platform: Platform,
  now = new Date(),
): Promise<DownloadableCoupon[]> {
  const nowIso = now.toISOString()
  const coupons = await db.all<
    Cols<'coupons', 'id' | 'title' | 'type' | 'minimum_amount' | 'expires_at' | 'reward_type' | 'reward_amount'> & { soldOut: Flag }
  >(
    `SELECT c.id, c.title, c.type, c.minimum_amount AS minimumAmount, c.expires_at AS expiresAt, c.reward_type AS rewardType, c.reward_amount AS rewardAmount,
            (c.stock IS NOT NULL AND c.used_count >= c.stock) AS soldOut
       FROM coupons c
      WHERE c.is_downloadable = 1 AND (c.starts_at IS NULL OR c.starts_at <= ?) AND (c.expires_at IS NULL OR c.expires_at > ?) AND (c.platform IS NULL OR c.platform = ?)
      ORDER BY c.expires_at IS NULL, c.expires_at, c.id LIMIT 50`,
    nowIso,
    nowIso,
    platform,
  )
  const held =
    userId === null || coupons.length === 0
      ? []
      : await moneyDb(db, userId).all<{ couponId: number; used: Flag }>(
          `SELECT coupon_id AS couponId, used_at IS NOT NULL AS used FROM coupon_redemptions
            WHERE user_id = ? AND coupon_id IN (SELECT value FROM json_each(?))`,
          userId,
          JSON.stringify(coupons.map((c) => c.id)),
        )
  const usedOf = new Map(held.map((r) => [r.couponId, flag(r.used)]))
  return coupons.map((c) => ({ ...c, received: usedOf.has(c.id), used: usedOf.get(c.id) ?? false, soldOut: flag(c.soldOut) }))
}

export type DownloadResult = { couponId: number; reward: { type: RewardType; amount: number } | null }

/**
 * Downloads coupon `couponId` for the reader (rules: `checkDownload`). The coupon (shared) and whether the reader
 * holds it (their money rows) are read side by side; then the same two steps as a code redemption (`redeemCoupon`):
 * the claim of one unit (`claimUnit`: sold out or expired meanwhile → read and check again), then the reader's money
 * batch — the redemption row (downloaded now; UNIQUE per reader and coupon, so a concurrent second download fails
 * the whole batch) and, for a coupon without a minimum amount, its reward at once (the row is then used too). A money
 * batch that throws gives the unit back (`giveBackUnit`); a worker stopped between the steps leaves the coupon one
 * unit short, never one over. `reward` is null when the coupon waits for a top-up of at least its minimum amount
 * (applied when that payment is credited: `topUpCoupons`, `topUpCouponStatements`).
 */
export async function downloadCoupon(
  db: Db,
  input: { userId: number; couponId: number; platform: Platform },
  now = new Date(),
): Promise<DownloadResult> {
  const { userId, couponId, platform } = input
  const nowIso = now.toISOString()
  const money = moneyDb(db, userId)
  for (let attempt = 1; ; attempt++) {
    const [coupon, held] = await Promise.all([
      db.first<CouponRow & Cols<'coupons', 'is_downloadable'>>(
        `SELECT ${COUPON_COLUMNS}, is_downloadable AS isDownloadable FROM coupons WHERE id = ?`,
        couponId,
      ),
      money.first<{ one: 1 }>(`SELECT 1 AS one FROM coupon_redemptions WHERE user_id = ? AND coupon_id = ?`, userId, couponId),
    ])
    const verdict = checkDownload(coupon, platform, held !== null, now)
    if (!verdict.ok) throw new AppError(verdict.code)
    const c = coupon!
    const grant = verdict.immediate ? couponGrant(c, now) : null
    if (await claimUnit(db, c.id, nowIso)) {
      const statements: { sql: string; params: unknown[] }[] = [
        {
          sql: `INSERT INTO coupon_redemptions (coupon_id, user_id, downloaded_at, used_at, created_at) VALUES (?, ?, ?, ?, ?)`,
          params: [c.id, userId, nowIso, grant ? nowIso : null, nowIso],
        },
      ]
      if (grant) statements.push(...grantStatements(userId, grant, `coupon:${c.id}`, 'coupon download', nowIso))
      if (await redeemed(db, userId, c.id, statements))
        return { couponId: c.id, reward: grant ? { type: c.rewardType, amount: grant.kind === 'LOT' ? grant.amount : grant.count } : null }
    }
    if (attempt >= REDEEM_ATTEMPTS) throw new AppError('TOO_MANY_REQUESTS')
  }
}

/**
 * The live coupons with a minimum top-up amount (spec §3), which a paid top-up may apply to a reader who downloaded one
 * (`topUpCouponStatements` picks among them by the reader's redemptions, inside their object): one D1 read, bounded.
 */
export async function topUpCoupons(db: Db, now: Date): Promise<Coupon[]> {
  return db.all<CouponRow>(
    `SELECT ${COUPON_COLUMNS} FROM coupons WHERE minimum_amount > 0 AND (expires_at IS NULL OR expires_at > ?) ORDER BY id LIMIT 200`,
    now.toISOString(),
  )
}

/**
 * The statements that apply the reader's oldest downloaded, unused, live coupon whose minimum amount the paid
 * top-up of `amount` (minor units) reaches (spec §3 minimum amount), among `coupons` (`topUpCoupons`, read
 * before the batch: the coupons are shared, so their facts and grants — `couponGrant` at `nowIso` — come in as a
 * JSON parameter): mark it used, then grant its reward — a coin or mileage reward as a COUPON lot and its CHARGE
 * ledger row (each step guarded by the previous one's `changes()`), a roulette-ticket reward as that many tickets
 * (at most MAX_TICKETS). The rewards find the coupon by the redemption's `used_at` of this batch, so nothing is
 * granted when no coupon qualifies (no statement at all when none of `coupons` does); put them in the payment's
 * credit batch, so they commit with it. All of them are the reader's money rows. The reward lot carries
 * `paymentId`: a refund of the payment takes it back too.
 */
export function topUpCouponStatements(
  userId: number,
  coupons: Coupon[],
  amount: number,
  nowIso: string,
  paymentId: string,
): { sql: string; params: unknown[] }[] {
  const now = new Date(nowIso)
  const qualifying = coupons
    .filter((c) => c.minimumAmount > 0 && c.minimumAmount <= amount && (c.expiresAt === null || c.expiresAt > nowIso))
    .map((c) => {
      const grant = couponGrant(c, now)
      return grant.kind === 'LOT'
        ? { id: c.id, kind: grant.kind, lotType: grant.lotType, amount: grant.amount, expiresAt: grant.expiresAt, tickets: [] }
        : { id: c.id, kind: grant.kind, expiresAt: grant.expiresAt, tickets: Array.from({ length: grant.count }, () => 0) }
    })
  if (qualifying.length === 0) return []
  const list = JSON.stringify(qualifying)
  return [
    {
      sql: `UPDATE coupon_redemptions SET used_at = ? WHERE id = (
              SELECT id FROM coupon_redemptions
               WHERE user_id = ? AND used_at IS NULL AND downloaded_at IS NOT NULL
                 AND coupon_id IN (SELECT json_extract(value, '$.id') FROM json_each(?))
               ORDER BY id LIMIT 1)`,
      params: [nowIso, userId, list],
    },
    {
      sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source, ref, payment_id, created_at)
            SELECT r.user_id, json_extract(c.value, '$.lotType'), json_extract(c.value, '$.amount'), json_extract(c.value, '$.amount'),
                   json_extract(c.value, '$.expiresAt'), 'COUPON', 'coupon:' || r.coupon_id, ?, ?
              FROM coupon_redemptions r JOIN json_each(?) c ON json_extract(c.value, '$.id') = r.coupon_id
             WHERE changes() = 1 AND r.user_id = ? AND r.used_at = ? AND r.downloaded_at IS NOT NULL AND json_extract(c.value, '$.kind') = 'LOT'
             ORDER BY r.id LIMIT 1`,
      params: [paymentId, nowIso, list, userId, nowIso],
    },
    {
      sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, ref, description, created_at)
            SELECT user_id, 'CHARGE', id, type, 'COUPON', amount, ref, 'coupon on top-up', created_at FROM coin_lots
             WHERE changes() = 1 AND id = last_insert_rowid() AND source = 'COUPON' AND user_id = ?`,
      params: [userId],
    },
    {
      sql: `INSERT INTO event_tickets (user_id, kind, source, ref, expires_at, created_at)
            SELECT r.user_id, 'ROULETTE', 'COUPON', 'coupon:' || r.coupon_id, json_extract(c.value, '$.expiresAt'), ?
              FROM coupon_redemptions r JOIN json_each(?) c ON json_extract(c.value, '$.id') = r.coupon_id
                   JOIN json_each(json_extract(c.value, '$.tickets')) t
             WHERE r.user_id = ? AND r.used_at = ? AND r.downloaded_at IS NOT NULL AND json_extract(c.value, '$.kind') = 'TICKETS'`,
      params: [nowIso, list, userId, nowIso],
    },
  ]
}

/** A coupon as the operator sees it (docs/API.md `/api/ops/coupons`): its fields, state and use counts. */
export type OpsCoupon = Coupon & {
  code: string | null
  title: string
  downloadable: boolean
  state: ReturnType<typeof couponState>
  /** Readers holding it (a redemption row: downloaded or entered). */
  received: number
  /** Readers whose reward was granted (`used_at` set). */
  used: number
  createdAt: string
}

const OPS_COUPON = `c.id, c.code, c.title, c.type, c.minimum_amount AS minimumAmount, c.starts_at AS startsAt, c.expires_at AS expiresAt,
  c.platform, c.reward_type AS rewardType, c.reward_amount AS rewardAmount, c.reward_lot_type AS rewardLotType,
  c.reward_expires_days AS rewardExpiresDays, c.stock, c.used_count AS usedCount, c.is_downloadable AS downloadable,
  c.created_at AS createdAt,
  c.received_count AS received, c.redeemed_count AS used`
type OpsCouponRow = CouponRow & Cols<'coupons', 'code' | 'title' | 'created_at'> & { downloadable: Flag; received: number; used: number }
const toOpsCoupon = (r: OpsCouponRow, now: Date): OpsCoupon => ({ ...r, downloadable: flag(r.downloadable), state: couponState(r, now) })

/** Most coupons `couponReport` lists, newest first. */
const COUPON_REPORT_SIZE = 200

/**
 * Creates a coupon (rules: `CouponCreateRequest`). Returns null, writing nothing, when its code is taken (codes compare
 * case-insensitively); INVALID_PARAMETER `expiresAt` for an expiry that is not after `now`.
 */
export async function createCoupon(db: Db, input: CouponCreateRequest, now: Date): Promise<OpsCoupon | null> {
  if (input.expiresAt !== undefined && Date.parse(input.expiresAt) <= now.getTime()) {
    throw new AppError('INVALID_PARAMETER', { fields: 'expiresAt' })
  }
  const created = await db.first<{ id: number }>(
    `INSERT INTO coupons (code, title, type, minimum_amount, starts_at, expires_at, platform, reward_type, reward_amount,
                          reward_lot_type, reward_expires_days, stock, is_downloadable, created_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14
      WHERE ?1 IS NULL OR NOT EXISTS (SELECT 1 FROM coupons WHERE code = ?1)
     RETURNING id`,
    input.code ?? null,
    input.title,
    input.type,
    input.minimumAmount,
    input.startsAt ?? null,
    input.expiresAt ?? null,
    input.platform ?? null,
    input.rewardType,
    input.rewardAmount,
    input.rewardLotType ?? null,
    input.rewardExpiresDays ?? null,
    input.quantity ?? null,
    input.downloadable ? 1 : 0,
    now.toISOString(),
  )
  return created ? (await couponReport(db, now, created.id))[0]! : null
}

/**
 * Ends a coupon now: its expiry becomes `now` (readers get EXPIRED_COUPON; what they received stays theirs).
 * NOT_FOUND_COUPON for an unknown id, EXPIRED_COUPON for one already over (nothing changes).
 */
export async function expireCoupon(db: Db, id: number, now: Date): Promise<OpsCoupon> {
  const nowIso = now.toISOString()
  const ended = await db.first<{ id: number }>(
    `UPDATE coupons SET expires_at = ?2 WHERE id = ?1 AND (expires_at IS NULL OR expires_at > ?2) RETURNING id`,
    id,
    nowIso,
  )
  if (!ended) {
    const known = await db.first<{ id: number }>(`SELECT id FROM coupons WHERE id = ?`, id)
    throw new AppError(known ? 'EXPIRED_COUPON' : 'NOT_FOUND_COUPON')
  }
  return (await couponReport(db, now, id))[0]!
}

/**
 * Coupons with their use counts, newest first (`id`: that one only: NOT_FOUND_COUPON if unknown). The counts are the
 * shared counters the readers' `coupon` events keep (migrations/0038_money_in_objects.sql): one statement on D1.
 */
export async function couponReport(db: Db, now: Date, id?: number): Promise<OpsCoupon[]> {
  const rows = await db.all<OpsCouponRow>(
    `SELECT ${OPS_COUPON} FROM coupons c WHERE ?1 IS NULL OR c.id = ?1 ORDER BY c.id DESC LIMIT ${COUPON_REPORT_SIZE}`,
    id ?? null,
  )
  if (id !== undefined && rows.length === 0) throw new AppError('NOT_FOUND_COUPON')
  return rows.map((r) => toOpsCoupon(r, now))
}

/** A reader of a coupon, as `couponReaders` lists them. */
export type CouponReader = { userId: number; email: string | null; receivedAt: string | null; redeemedAt: string | null }

/**
 * Who used coupon `id` (migrations/0046_coupon_readers.sql: since that table exists), latest first, at most
 * COUPON_REPORT_SIZE: each reader's id, e-mail, when they took it and when its reward was given.
 */
export async function couponReaders(db: Db, id: number): Promise<CouponReader[]> {
  return db.all<CouponReader>(
    `SELECT r.user_id AS userId, u.email, r.received_at AS receivedAt, r.redeemed_at AS redeemedAt
       FROM coupon_readers r LEFT JOIN users u ON u.id = r.user_id
      WHERE r.coupon_id = ? ORDER BY r.received_at DESC, r.user_id DESC LIMIT ${COUPON_REPORT_SIZE}`,
    id,
  )
}
