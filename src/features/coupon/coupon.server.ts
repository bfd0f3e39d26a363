/**
 * Coupon redemption on D1 (docs/API.md `POST /api/v1/coupon/code`; docs/ARCHITECTURE.md "Money": every grant is a lot
 * and its CHARGE ledger row, written in one batch with everything else the redemption changes).
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import { firstRow, flag, type Cols, type Flag } from '../../lib/server/rows.ts'
import {
  checkCoupon,
  checkDownload,
  couponGrant,
  couponState,
  MAX_TICKETS,
  type Coupon,
  type CouponCreateRequest,
  type CouponGrant,
  type DownloadableCoupon,
  type Platform,
  type RewardType,
} from './coupon.ts'
import { checkLimits } from '../auth/limits.server.ts'
import { countAttempt } from '../auth/auth.server.ts'
import { isConstraint } from '../../lib/server/constraint.ts'

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
 * Redeems the coupon whose code is `code` (already normalized; the column compares case-insensitively) for
 * the reader on `platform`. Rules: `checkCoupon`, then `couponGrant`. One batch:
 *
 * 1. the reader's redemption row — UNIQUE (user_id, coupon_id): a second redemption by the same reader,
 *    however concurrent, fails the whole batch;
 * 2. the coupon's `used_count + 1`, only while the coupon is live — the table's CHECK (used_count <= stock)
 *    fails the whole batch when the last unit went meanwhile;
 * 3. the reward: a lot (source COUPON, ref the coupon id) and its CHARGE ledger row, or roulette tickets
 *    (event_tickets, source COUPON).
 *
 * A refused batch wrote nothing: the coupon is read and checked again, which now names the cause
 * (ALREADY_USED_COUPON, SOLD_OUT_COUPON, EXPIRED_COUPON). FREQUENT_REQUEST past the address's or the account's
 * allowance of tries (issue 34 point 6), before the code is looked at.
 */
export async function redeemCoupon(
  db: Db,
  input: { userId: number; code: string; platform: Platform; client: { ip: string | null; issuer: string } },
  now = new Date(),
): Promise<CouponReward> {
  const { userId, code, platform } = input
  const nowIso = now.toISOString()
  // codes are not guessed: 10 a minute per address, COUPON_CODE_TRIES an hour per account (one counting statement)
  await checkLimits('coupon-code', input.client)
  if ((await countAttempt(db, `coupon:${userId}`, 3600, now)) > COUPON_CODE_TRIES) throw new AppError('FREQUENT_REQUEST')
  for (let attempt = 1; ; attempt++) {
    const coupon: Coupon | null = await db.first<CouponRow>(`SELECT ${COUPON_COLUMNS} FROM coupons WHERE code = ?`, code)
    const used = coupon
      ? await db.first<{ one: 1 }>(`SELECT 1 AS one FROM coupon_redemptions WHERE user_id = ? AND coupon_id = ?`, userId, coupon.id)
      : null
    const verdict = checkCoupon(coupon, platform, used !== null, now)
    if (!verdict.ok) throw new AppError(verdict.code)
    const c = coupon!
    const grant = couponGrant(c, now)
    const ref = `coupon:${c.id}`
    const statements: { sql: string; params: unknown[] }[] = [
      {
        sql: `INSERT INTO coupon_redemptions (coupon_id, user_id, used_at, created_at) VALUES (?, ?, ?, ?)`,
        params: [c.id, userId, nowIso, nowIso],
      },
      {
        // The CASE makes a coupon that expired since the read fail the batch too (CHECK used_count <= stock, or
        // used_count >= 0 for an unlimited one), so no redemption commits after the expiry instant.
        sql: `UPDATE coupons SET used_count = CASE WHEN expires_at IS NULL OR expires_at > ? THEN used_count + 1 ELSE -1 END WHERE id = ?`,
        params: [nowIso, c.id],
      },
    ]
    statements.push(...grantStatements(userId, grant, ref, `coupon ${code}`, nowIso))
    try {
      await db.batch(statements)
      return { reward: { type: c.rewardType, amount: grant.kind === 'LOT' ? grant.amount : grant.count } }
    } catch (e) {
      // Redeemed by this reader, sold out or expired meanwhile: nothing was written; read and check again.
      if (!isConstraint(e)) throw e
      if (attempt >= REDEEM_ATTEMPTS) throw new AppError('TOO_MANY_REQUESTS')
    }
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

/** Downloadable coupons shown on /coupon (live ones, for the caller's platform), with what the reader holds. */
export async function downloadableCoupons(
  db: Db,
  userId: number | null,
  platform: Platform,
  now = new Date(),
): Promise<DownloadableCoupon[]> {
  const nowIso = now.toISOString()
  const rows = await db.all<
    Cols<'coupons', 'id' | 'title' | 'type' | 'minimum_amount' | 'expires_at' | 'reward_type' | 'reward_amount'> & {
      received: Flag
      used: Flag
      soldOut: Flag
    }
  >(
    `SELECT c.id, c.title, c.type, c.minimum_amount AS minimumAmount, c.expires_at AS expiresAt, c.reward_type AS rewardType, c.reward_amount AS rewardAmount,
            r.id IS NOT NULL AS received, coalesce(r.used_at IS NOT NULL, 0) AS used, (c.stock IS NOT NULL AND c.used_count >= c.stock) AS soldOut
       FROM coupons c LEFT JOIN coupon_redemptions r ON r.coupon_id = c.id AND r.user_id = ?
      WHERE c.is_downloadable = 1 AND (c.starts_at IS NULL OR c.starts_at <= ?) AND (c.expires_at IS NULL OR c.expires_at > ?) AND (c.platform IS NULL OR c.platform = ?)
      ORDER BY c.expires_at IS NULL, c.expires_at, c.id LIMIT 50`,
    userId ?? 0,
    nowIso,
    nowIso,
    platform,
  )
  return rows.map((r) => ({ ...r, received: flag(r.received), used: flag(r.used), soldOut: flag(r.soldOut) }))
}

export type DownloadResult = { couponId: number; reward: { type: RewardType; amount: number } | null }

/**
 * Downloads coupon `couponId` for the reader (rules: `checkDownload`). One batch: the reader's redemption row
 * (downloaded now; UNIQUE per reader and coupon, so a concurrent second download fails the whole batch), the
 * coupon's `used_count + 1` under the same stock/expiry guard as a code redemption, and — for a coupon without
 * a minimum amount — its reward at once (the row is then used too). `reward` is null when the coupon waits for a
 * top-up of at least its minimum amount (applied when that payment is credited, `payment.server.ts`).
 */
export async function downloadCoupon(
  db: Db,
  input: { userId: number; couponId: number; platform: Platform },
  now = new Date(),
): Promise<DownloadResult> {
  const { userId, couponId, platform } = input
  const nowIso = now.toISOString()
  for (let attempt = 1; ; attempt++) {
    const [couponRes, heldRes] = await db.batch([
      { sql: `SELECT ${COUPON_COLUMNS}, is_downloadable AS isDownloadable FROM coupons WHERE id = ?`, params: [couponId] },
      { sql: `SELECT 1 AS one FROM coupon_redemptions WHERE user_id = ? AND coupon_id = ?`, params: [userId, couponId] },
    ])
    const coupon = firstRow<CouponRow & Cols<'coupons', 'is_downloadable'>>(couponRes) ?? null
    const verdict = checkDownload(coupon, platform, heldRes!.results.length > 0, now)
    if (!verdict.ok) throw new AppError(verdict.code)
    const c = coupon!
    const grant = verdict.immediate ? couponGrant(c, now) : null
    const statements: { sql: string; params: unknown[] }[] = [
      {
        sql: `INSERT INTO coupon_redemptions (coupon_id, user_id, downloaded_at, used_at, created_at) VALUES (?, ?, ?, ?, ?)`,
        params: [c.id, userId, nowIso, grant ? nowIso : null, nowIso],
      },
      {
        sql: `UPDATE coupons SET used_count = CASE WHEN expires_at IS NULL OR expires_at > ? THEN used_count + 1 ELSE -1 END WHERE id = ?`,
        params: [nowIso, c.id],
      },
    ]
    if (grant) statements.push(...grantStatements(userId, grant, `coupon:${c.id}`, 'coupon download', nowIso))
    try {
      await db.batch(statements)
      return { couponId: c.id, reward: grant ? { type: c.rewardType, amount: grant.kind === 'LOT' ? grant.amount : grant.count } : null }
    } catch (e) {
      if (!isConstraint(e)) throw e
      if (attempt >= REDEEM_ATTEMPTS) throw new AppError('TOO_MANY_REQUESTS')
    }
  }
}

/** The top-up coupons a paid top-up could apply (`topUpCoupons`), as the JSON list `topUpCouponStatements` takes. */
export type TopUpCoupons = string

/**
 * The live coupons whose minimum amount (spec §3) a paid top-up of `amount` (minor units) reaches at `nowIso`, with
 * their rewards: the shared facts `topUpCouponStatements` applies inside the reader's credit batch (one statement).
 */
export async function topUpCoupons(db: Db, amount: number, nowIso: string): Promise<TopUpCoupons> {
  const row = await db.first<{ list: string }>(
    `SELECT json_group_array(json_object('id', id, 'reward_type', reward_type, 'reward_lot_type', reward_lot_type,
              'reward_amount', reward_amount, 'reward_expires_days', reward_expires_days)) AS list
       FROM coupons WHERE minimum_amount > 0 AND minimum_amount <= ? AND (expires_at IS NULL OR expires_at > ?)`,
    amount,
    nowIso,
  )
  return row?.list ?? '[]'
}

/** The coupons of a `TopUpCoupons` list as a table `c` of a money statement (its one parameter is the list). */
const TOP_UP_COUPONS = `(SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.reward_type') AS reward_type,
    json_extract(value, '$.reward_lot_type') AS reward_lot_type, json_extract(value, '$.reward_amount') AS reward_amount,
    json_extract(value, '$.reward_expires_days') AS reward_expires_days FROM json_each(?)) c`

/**
 * The statements that apply the reader's oldest downloaded, unused coupon among `coupons` (`topUpCoupons`: live,
 * minimum amount reached by the paid top-up, spec §3): mark it used, then grant its reward — a coin
 * or mileage reward as a COUPON lot and its CHARGE ledger row (each step guarded by the previous one's
 * `changes()`), a roulette-ticket reward as that many tickets (at most MAX_TICKETS). The rewards find the coupon
 * by the redemption's `used_at` of this batch, so nothing is granted when no coupon qualifies; put them in the
 * payment's credit batch, so they commit with it. They name the reader's money tables only (moneyDb): the coupons'
 * facts come in as a parameter. The reward lot carries `paymentId`: a refund of the payment takes it back too.
 */
export function topUpCouponStatements(
  userId: number,
  coupons: TopUpCoupons,
  nowIso: string,
  paymentId: string,
): { sql: string; params: unknown[] }[] {
  return [
    {
      sql: `UPDATE coupon_redemptions SET used_at = ? WHERE id = (
              SELECT r.id FROM coupon_redemptions r JOIN ${TOP_UP_COUPONS} ON c.id = r.coupon_id
               WHERE r.user_id = ? AND r.used_at IS NULL AND r.downloaded_at IS NOT NULL
               ORDER BY r.id LIMIT 1)`,
      params: [nowIso, coupons, userId],
    },
    {
      sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source, ref, payment_id, created_at)
            SELECT r.user_id,
                   CASE WHEN c.reward_type = 'MILEAGE' THEN 'MILEAGE' WHEN c.reward_lot_type IN ('COIN', 'FREE_COIN', 'BONUS') THEN c.reward_lot_type ELSE 'FREE_COIN' END,
                   c.reward_amount, c.reward_amount,
                   CASE WHEN c.reward_expires_days IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', ?, '+' || c.reward_expires_days || ' days') END,
                   'COUPON', 'coupon:' || c.id, ?, ?
              FROM coupon_redemptions r JOIN ${TOP_UP_COUPONS} ON c.id = r.coupon_id
             WHERE changes() = 1 AND r.user_id = ? AND r.used_at = ? AND r.downloaded_at IS NOT NULL AND c.reward_type IN ('COIN', 'MILEAGE')
             ORDER BY r.id LIMIT 1`,
      params: [nowIso, paymentId, nowIso, coupons, userId, nowIso],
    },
    {
      sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, ref, description, created_at)
            SELECT user_id, 'CHARGE', id, type, 'COUPON', amount, ref, 'coupon on top-up', created_at FROM coin_lots
             WHERE changes() = 1 AND id = last_insert_rowid() AND source = 'COUPON' AND user_id = ?`,
      params: [userId],
    },
    {
      // n: the numbers 1 … MAX_TICKETS, one ticket each up to the reward
      sql: `INSERT INTO event_tickets (user_id, kind, source, ref, expires_at, created_at)
            SELECT r.user_id, 'ROULETTE', 'COUPON', 'coupon:' || c.id,
                   CASE WHEN c.reward_expires_days IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', ?, '+' || c.reward_expires_days || ' days') END, ?
              FROM coupon_redemptions r JOIN ${TOP_UP_COUPONS} ON c.id = r.coupon_id JOIN json_each(?) n ON n.value <= c.reward_amount
             WHERE r.user_id = ? AND r.used_at = ? AND r.downloaded_at IS NOT NULL AND c.reward_type = 'ROULETTE_TICKET'`,
      params: [nowIso, nowIso, coupons, JSON.stringify(Array.from({ length: MAX_TICKETS }, (_, i) => i + 1)), userId, nowIso],
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
  (SELECT count(*) FROM coupon_redemptions r WHERE r.coupon_id = c.id) AS received,
  (SELECT count(*) FROM coupon_redemptions r WHERE r.coupon_id = c.id AND r.used_at IS NOT NULL) AS used`
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

/** Coupons with their use counts, newest first (`id`: that one only: NOT_FOUND_COUPON if unknown). */
export async function couponReport(db: Db, now: Date, id?: number): Promise<OpsCoupon[]> {
  const rows = await db.all<OpsCouponRow>(
    `SELECT ${OPS_COUPON} FROM coupons c WHERE ?1 IS NULL OR c.id = ?1 ORDER BY c.id DESC LIMIT ${COUPON_REPORT_SIZE}`,
    id ?? null,
  )
  if (id !== undefined && rows.length === 0) throw new AppError('NOT_FOUND_COUPON')
  return rows.map((r) => toOpsCoupon(r, now))
}
