/**
 * Coupon redemption on D1 (API.md `POST /api/v1/coupon/code`; ARCHITECTURE.md "Money": every grant is a lot
 * and its CHARGE ledger row, written in one batch with everything else the redemption changes).
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import { checkCoupon, couponGrant, type Coupon, type Platform, type RewardType } from './coupon.ts'

/** How often a redemption re-reads after a concurrent change refused its batch (each refusal is another's commit). */
const REDEEM_ATTEMPTS = 5

export type CouponReward = { reward: { type: RewardType; amount: number } }

const COUPON_COLUMNS = `id, type, minimum_amount AS minimumAmount, starts_at AS startsAt, expires_at AS expiresAt, platform,
  reward_type AS rewardType, reward_amount AS rewardAmount, reward_lot_type AS rewardLotType,
  reward_expires_days AS rewardExpiresDays, stock, used_count AS usedCount`

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
 * (ALREADY_USED_COUPON, SOLD_OUT_COUPON, EXPIRED_COUPON).
 */
export async function redeemCoupon(db: Db, input: { userId: number; code: string; platform: Platform }, now = new Date()): Promise<CouponReward> {
  const { userId, code, platform } = input
  const nowIso = now.toISOString()
  for (let attempt = 1; ; attempt++) {
    const coupon = await db.first<Coupon>(`SELECT ${COUPON_COLUMNS} FROM coupons WHERE code = ?`, code)
    const used = coupon ? await db.first<{ one: number }>(`SELECT 1 AS one FROM coupon_redemptions WHERE user_id = ? AND coupon_id = ?`, userId, coupon.id) : null
    const verdict = checkCoupon(coupon, platform, used !== null, now)
    if (!verdict.ok) throw new AppError(verdict.code)
    const c = coupon!
    const grant = couponGrant(c, now)
    const ref = `coupon:${c.id}`
    const statements: { sql: string; params: unknown[] }[] = [
      { sql: `INSERT INTO coupon_redemptions (coupon_id, user_id, used_at, created_at) VALUES (?, ?, ?, ?)`, params: [c.id, userId, nowIso, nowIso] },
      {
        // The CASE makes a coupon that expired since the read fail the batch too (CHECK used_count <= stock, or
        // used_count >= 0 for an unlimited one), so no redemption commits after the expiry instant.
        sql: `UPDATE coupons SET used_count = CASE WHEN expires_at IS NULL OR expires_at > ? THEN used_count + 1 ELSE -1 END WHERE id = ?`,
        params: [nowIso, c.id],
      },
    ]
    if (grant.kind === 'LOT') {
      statements.push(
        {
          sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source, ref, created_at) VALUES (?, ?, ?, ?, ?, 'COUPON', ?, ?)`,
          params: [userId, grant.lotType, grant.amount, grant.amount, grant.expiresAt, ref, nowIso],
        },
        {
          sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, ref, description, created_at)
                VALUES (?, 'CHARGE', last_insert_rowid(), ?, 'COUPON', ?, ?, ?, ?)`,
          params: [userId, grant.lotType, grant.amount, ref, `coupon ${code}`, nowIso],
        },
      )
    } else {
      statements.push({
        sql: `INSERT INTO event_tickets (user_id, kind, source, ref, expires_at, created_at) SELECT ?, 'ROULETTE', 'COUPON', ?, ?, ? FROM json_each(?)`,
        params: [userId, ref, grant.expiresAt, nowIso, JSON.stringify(Array.from({ length: grant.count }, () => 0))],
      })
    }
    try {
      await db.batch(statements)
      return { reward: { type: c.rewardType, amount: grant.kind === 'LOT' ? grant.amount : grant.count } }
    } catch (e) {
      // Redeemed by this reader, sold out or expired meanwhile: nothing was written; read and check again.
      if (!/(CHECK|UNIQUE) constraint failed/.test(String((e as Error)?.message))) throw e
      if (attempt >= REDEEM_ATTEMPTS) throw new AppError('TOO_MANY_REQUESTS')
    }
  }
}
