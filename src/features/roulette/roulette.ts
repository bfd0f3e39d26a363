/**
 * Roulette rules without I/O (spec §2 /roulette, §3 coupon reward "roulette ticket", §8 event codes).
 * The wheel and its weights are data: `events.config` of a ROULETTE event, validated by `RouletteConfig`.
 * The server draws the prize (`drawPrize`); the page only animates the answer.
 */
import { z } from 'zod'

export const PRIZE_TYPES = ['COIN', 'FREE_COIN', 'BONUS', 'MILEAGE', 'NONE'] as const
export type PrizeType = (typeof PRIZE_TYPES)[number]

/** A slice of the wheel: `amount` coins of `type` (NONE: nothing), drawn with probability weight/Σweights. */
export const Prize = z
  .object({
    type: z.enum(PRIZE_TYPES),
    amount: z.number().int().min(0).max(1_000_000),
    weight: z.number().int().positive().max(1_000_000),
  })
  .refine((p) => (p.type === 'NONE') === (p.amount === 0), { message: 'NONE has amount 0, any other prize a positive amount' })
export type Prize = z.infer<typeof Prize>

/** `events.config` of a ROULETTE event. */
export const RouletteConfig = z.object({
  /** Spins the reader gets free each day (in the edition's time zone) on top of their tickets. */
  dailyFreeTickets: z.number().int().min(0).max(10).default(0),
  /** The wheel, in display order (2–24 slices). */
  prizes: z.array(Prize).min(2).max(24),
  /** Coins won expire this many days after the spin; absent: never. */
  prizeExpiresDays: z.number().int().positive().max(3650).optional(),
})
export type RouletteConfig = z.infer<typeof RouletteConfig>

/** The parsed wheel of an event, or null when its config is not a valid roulette. */
export function parseRouletteConfig(text: string): RouletteConfig | null {
  try {
    const parsed = RouletteConfig.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/**
 * The slice that `r` (uniform in [0, 1)) lands on: slice i covers the i-th share of Σ weights, so each
 * prize comes with probability weight/Σweights and the answer is always an index of `prizes`.
 */
export function drawPrize(prizes: readonly Pick<Prize, 'weight'>[], r: number): number {
  const total = prizes.reduce((s, p) => s + p.weight, 0)
  const point = Math.min(Math.max(r, 0), 1 - Number.EPSILON) * total
  let acc = 0
  for (let i = 0; i < prizes.length; i++) {
    acc += prizes[i]!.weight
    if (point < acc) return i
  }
  return prizes.length - 1
}

/** A uniform number in [0, 1) from the platform's CSPRNG (the draw must not be predictable from outside). */
export function randomUnit(): number {
  const [a] = crypto.getRandomValues(new Uint32Array(1))
  return a! / 2 ** 32
}

/** The free-spin slots of `day`: `day#1` … `day#n`; one entry per slot (unique in D1) bounds the free spins. */
export function freeSlots(day: string, dailyFreeTickets: number): string[] {
  return Array.from({ length: dailyFreeTickets }, (_, i) => `${day}#${i + 1}`)
}

/** `POST /roulette/spin` body: the event to play (the page's roulette). */
export const SpinRequest = z
  .object({
    eventId: z
      .number()
      .int()
      .positive()
      .max(2 ** 31),
  })
  .strict()
export type SpinRequest = z.infer<typeof SpinRequest>

/** What a prize grants: a lot of `type`, or nothing. */
export function prizeGrant(prize: Pick<Prize, 'type' | 'amount'>): { type: Exclude<PrizeType, 'NONE'>; amount: number } | null {
  return prize.type === 'NONE' || prize.amount <= 0 ? null : { type: prize.type, amount: prize.amount }
}

/** One slice of the drawn wheel (SVG path in a -100..100 box, slice 0 starting at the top, clockwise). */
export type WheelSlice = { path: string; labelX: number; labelY: number; angle: number }

/** The slices of an `n`-slice wheel of radius `r`, for the page's SVG (the pointer sits at the top). */
export function wheelSlices(n: number, r = 96): WheelSlice[] {
  const point = (a: number, radius: number) =>
    [Math.sin(a) * radius, -Math.cos(a) * radius].map((v) => Math.round(v * 100) / 100) as [number, number]
  const seg = (2 * Math.PI) / n
  return Array.from({ length: n }, (_, i) => {
    const [x0, y0] = point(i * seg, r)
    const [x1, y1] = point((i + 1) * seg, r)
    const [labelX, labelY] = point((i + 0.5) * seg, r * 0.66)
    return {
      path: `M0 0 L${x0} ${y0} A${r} ${r} 0 ${seg > Math.PI ? 1 : 0} 1 ${x1} ${y1} Z`,
      labelX,
      labelY,
      angle: Math.round(((i + 0.5) * 360) / n),
    }
  })
}
