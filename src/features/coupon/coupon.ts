/**
 * Coupon rules without I/O (spec §3 coupon fields, §5 "coupon code non-empty", §8 coupon codes; docs/API.md
 * `POST /api/v1/coupon/code`): which catalogue code a code entry earns, and what it grants.
 */
import { z } from 'zod'
import { MAX_ADMIN_ADJUST, expiryInstant, type CoinType } from '../wallet/wallet.ts'
import { DAY_MS, isoAfter } from '../../lib/time.ts'
import { OpsDate, OpsReason, OpsStart } from '../../lib/ops.ts'
import { cleanText } from '../../lib/text/clean.ts'
import { PLATFORMS, type Platform } from '../../lib/platform.ts'

/** Longest code accepted (the seeded ones are ≤ 12 characters). */
export const MAX_CODE_LENGTH = 64

/** A code as stored: trimmed, upper case (codes compare case-insensitively, spec §5). */
function normalizeCode(code: string): string {
  return code.trim().toUpperCase()
}

/** docs/API.md body `{code}`: a non-empty code (spec §5), printable, at most `MAX_CODE_LENGTH` once trimmed. */
export const CouponCodeRequest = z.object({
  code: z
    .string()
    .max(MAX_CODE_LENGTH * 4)
    .transform(normalizeCode)
    .pipe(
      z
        .string()
        .min(1)
        .max(MAX_CODE_LENGTH)
        .regex(/^[\p{L}\p{N}_-]+$/u),
    ),
})
export type CouponCodeRequest = z.infer<typeof CouponCodeRequest>

export const REWARD_TYPES = ['COIN', 'MILEAGE', 'ROULETTE_TICKET'] as const
export type RewardType = (typeof REWARD_TYPES)[number]

/** A coupon as the rules see it (spec §3 coupon fields). Instants are ISO-8601; null: no bound. */
export type Coupon = {
  id: number
  type: 'DISCOUNT' | 'EXTRA_EARN'
  minimumAmount: number
  startsAt: string | null
  expiresAt: string | null
  platform: Platform | null
  rewardType: RewardType
  rewardAmount: number
  rewardLotType: CoinType | null
  rewardExpiresDays: number | null
  /** null: unlimited. */
  stock: number | null
  usedCount: number
}

export type CouponRefusal =
  'NOT_FOUND_COUPON' | 'EXPIRED_COUPON' | 'ALREADY_USED_COUPON' | 'SOLD_OUT_COUPON' | 'INVALID_MINIMUM_AMOUNT_COUPON'

/**
 * Whether a reader on `platform` may redeem `coupon` by code at `now` (`alreadyUsed`: the reader holds a
 * redemption of it). In this order, so a reader learns nothing about a coupon not meant for them:
 * - unknown, not started yet, or restricted to another platform → NOT_FOUND_COUPON;
 * - past its expiry → EXPIRED_COUPON;
 * - redeemed by this reader before → ALREADY_USED_COUPON;
 * - every unit taken → SOLD_OUT_COUPON;
 * - a coupon with a minimum amount applies to a top-up of at least that much, never to a bare code entry →
 *   INVALID_MINIMUM_AMOUNT_COUPON.
 */
export function checkCoupon(
  coupon: Coupon | null,
  platform: Platform,
  alreadyUsed: boolean,
  now: Date,
): { ok: true } | { ok: false; code: CouponRefusal } {
  const t = now.getTime()
  if (!coupon) return { ok: false, code: 'NOT_FOUND_COUPON' }
  if (coupon.startsAt !== null && Date.parse(coupon.startsAt) > t) return { ok: false, code: 'NOT_FOUND_COUPON' }
  if (coupon.platform !== null && coupon.platform !== platform) return { ok: false, code: 'NOT_FOUND_COUPON' }
  if (coupon.expiresAt !== null && Date.parse(coupon.expiresAt) <= t) return { ok: false, code: 'EXPIRED_COUPON' }
  if (alreadyUsed) return { ok: false, code: 'ALREADY_USED_COUPON' }
  if (coupon.stock !== null && coupon.usedCount >= coupon.stock) return { ok: false, code: 'SOLD_OUT_COUPON' }
  if (coupon.minimumAmount > 0) return { ok: false, code: 'INVALID_MINIMUM_AMOUNT_COUPON' }
  return { ok: true }
}

/** What a redemption grants: a lot of `lotType` (coin and mileage rewards) or `tickets` roulette tickets. */
export type CouponGrant =
  | { kind: 'LOT'; lotType: CoinType; amount: number; expiresAt: string | null }
  | { kind: 'TICKETS'; count: number; expiresAt: string | null }

/** Most roulette tickets one coupon grants (one row each). */
export const MAX_TICKETS = 100

/**
 * The grant of a redeemable coupon: a COIN reward becomes a lot of the coupon's lot type (FREE_COIN when
 * unset: coupon coins are never paid coins), a MILEAGE reward a MILEAGE lot, a ROULETTE_TICKET reward that
 * many event tickets; all expire `rewardExpiresDays` after `now` (never when unset).
 */
export function couponGrant(coupon: Coupon, now: Date): CouponGrant {
  const expiresAt = coupon.rewardExpiresDays === null ? null : isoAfter(now, coupon.rewardExpiresDays * DAY_MS)
  if (coupon.rewardType === 'ROULETTE_TICKET') return { kind: 'TICKETS', count: Math.min(coupon.rewardAmount, MAX_TICKETS), expiresAt }
  const lotType: CoinType =
    coupon.rewardType === 'MILEAGE'
      ? 'MILEAGE'
      : coupon.rewardLotType && coupon.rewardLotType !== 'MILEAGE'
        ? coupon.rewardLotType
        : 'FREE_COIN'
  return { kind: 'LOT', lotType, amount: coupon.rewardAmount, expiresAt }
}

/** A downloadable coupon as the /coupon page lists it (spec §7 coupon check/download). */
export type DownloadableCoupon = {
  id: number
  title: string
  type: 'DISCOUNT' | 'EXTRA_EARN'
  minimumAmount: number
  expiresAt: string | null
  rewardType: RewardType
  rewardAmount: number
  /** The reader holds it already (downloaded; used or waiting for a top-up). */
  received: boolean
  /** Received and used (its reward granted). */
  used: boolean
  soldOut: boolean
}

/**
 * Whether a reader on `platform` may download `coupon` at `now` (`received`: the reader holds it already):
 * not downloadable, not started or another platform's → NOT_FOUND_COUPON; past its expiry → EXPIRED_COUPON;
 * held already → ALREADY_RECEIVED_COUPON; every unit taken → SOLD_OUT_COUPON.
 *
 * A downloaded coupon without a minimum amount gives its reward at once. One with a minimum amount (spec §3)
 * waits in the reader's coupons and gives its reward with the first paid top-up of at least that amount.
 */
export function checkDownload(
  coupon: (Coupon & { isDownloadable: number | boolean }) | null,
  platform: Platform,
  received: boolean,
  now: Date,
):
  | { ok: true; immediate: boolean }
  | { ok: false; code: 'NOT_FOUND_COUPON' | 'EXPIRED_COUPON' | 'ALREADY_RECEIVED_COUPON' | 'SOLD_OUT_COUPON' } {
  const t = now.getTime()
  if (!coupon || !coupon.isDownloadable) return { ok: false, code: 'NOT_FOUND_COUPON' }
  if (coupon.startsAt !== null && Date.parse(coupon.startsAt) > t) return { ok: false, code: 'NOT_FOUND_COUPON' }
  if (coupon.platform !== null && coupon.platform !== platform) return { ok: false, code: 'NOT_FOUND_COUPON' }
  if (coupon.expiresAt !== null && Date.parse(coupon.expiresAt) <= t) return { ok: false, code: 'EXPIRED_COUPON' }
  if (received) return { ok: false, code: 'ALREADY_RECEIVED_COUPON' }
  if (coupon.stock !== null && coupon.usedCount >= coupon.stock) return { ok: false, code: 'SOLD_OUT_COUPON' }
  return { ok: true, immediate: coupon.minimumAmount === 0 }
}

/** Spec §3 coupon types. */
export const COUPON_TYPES = ['DISCOUNT', 'EXTRA_EARN'] as const
/** The lot a COIN reward fills (coupon coins are never paid coins unless the operator says COIN). */
const REWARD_LOT_TYPES = ['FREE_COIN', 'BONUS', 'COIN'] as const
/** Bounds an operator's coupon stays within (a typo cannot make a coupon for a billion readers). */
export const MAX_COUPON_QUANTITY = 10_000_000
export const MAX_COUPON_MINIMUM = 100_000_000
export const MAX_REWARD_DAYS = 3650
const whole = (min: number, max: number) => z.number().int().min(min).max(max)

/**
 * A new coupon (docs/API.md `POST /api/ops/coupons`, `npm run ops -- coupon create`; spec §3 coupon fields): a code
 * to type, or a downloadable coupon listed on /coupon — exactly one. A minimum amount (a top-up of at least that much
 * gives the reward) applies to downloadable coupons only: `checkCoupon` refuses a code entry with a minimum. A lot
 * type only for a COIN reward; a ROULETTE_TICKET reward of at most `MAX_TICKETS`. Dates: `startsAt` a date is that
 * day's start (UTC), `expiresAt` a date is through that day's end (`expiryInstant`); the expiry after the start
 * (and after now: `createCoupon`). `quantity`: how many readers may use it; absent, unlimited.
 */
export const CouponCreateRequest = z
  .object({
    code: CouponCodeRequest.shape.code.optional(),
    downloadable: z.boolean().default(false),
    title: z.string().max(200).transform(cleanText).pipe(z.string().min(1).max(100)),
    type: z.enum(COUPON_TYPES),
    rewardType: z.enum(REWARD_TYPES),
    rewardAmount: whole(1, MAX_ADMIN_ADJUST),
    rewardLotType: z.enum(REWARD_LOT_TYPES).optional(),
    rewardExpiresDays: whole(1, MAX_REWARD_DAYS).optional(),
    minimumAmount: whole(0, MAX_COUPON_MINIMUM).default(0),
    startsAt: OpsStart.optional(),
    expiresAt: OpsDate.transform((d) => expiryInstant(d)!).optional(),
    platform: z.enum(PLATFORMS).optional(),
    quantity: whole(1, MAX_COUPON_QUANTITY).optional(),
    reason: OpsReason,
  })
  .superRefine((r, ctx) => {
    const bad = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
    if ((r.code === undefined) === !r.downloadable) bad('code', 'a code or downloadable, exactly one')
    if (r.rewardLotType !== undefined && r.rewardType !== 'COIN') bad('rewardLotType', 'only for a COIN reward')
    if (r.rewardType === 'ROULETTE_TICKET' && r.rewardAmount > MAX_TICKETS) bad('rewardAmount', `at most ${MAX_TICKETS} tickets`)
    if (r.minimumAmount > 0 && !r.downloadable) bad('minimumAmount', 'only for a downloadable coupon')
    if (r.startsAt && r.expiresAt && r.expiresAt <= r.startsAt) bad('expiresAt', 'after the start')
  })
export type CouponCreateRequest = z.infer<typeof CouponCreateRequest>

/** Where a coupon stands at `now` for readers (the order of `checkCoupon`'s refusals). */
export function couponState(
  c: Pick<Coupon, 'startsAt' | 'expiresAt' | 'stock' | 'usedCount'>,
  now: Date,
): 'LIVE' | 'NOT_STARTED' | 'EXPIRED' | 'SOLD_OUT' {
  const t = now.getTime()
  if (c.startsAt !== null && Date.parse(c.startsAt) > t) return 'NOT_STARTED'
  if (c.expiresAt !== null && Date.parse(c.expiresAt) <= t) return 'EXPIRED'
  if (c.stock !== null && c.usedCount >= c.stock) return 'SOLD_OUT'
  return 'LIVE'
}
