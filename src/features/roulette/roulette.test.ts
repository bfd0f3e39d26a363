import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { drawPrize, freeSlots, parseRouletteConfig, prizeGrant, SpinRequest, wheelSlices } from './roulette.ts'
import { localDay } from '../../lib/time.ts'
import { landingRotation } from './wheel.ts'

const weights = fc.array(
  fc.integer({ min: 1, max: 1000 }).map((weight) => ({ weight })),
  { minLength: 1, maxLength: 24 },
)

describe('drawPrize', () => {
  it('never answers a slice that is not on the wheel', () => {
    fc.assert(
      fc.property(weights, fc.double({ min: -1, max: 2, noNaN: true }), (prizes, r) => {
        const i = drawPrize(prizes, r)
        expect(Number.isInteger(i)).toBe(true)
        expect(i).toBeGreaterThanOrEqual(0)
        expect(i).toBeLessThan(prizes.length)
      }),
      { numRuns: 2000 },
    )
  })

  it('lands on each slice in proportion to its weight', () => {
    fc.assert(
      fc.property(weights, (prizes) => {
        const total = prizes.reduce((s, p) => s + p.weight, 0)
        const counts = new Array<number>(prizes.length).fill(0)
        const N = 20_000
        // evenly spaced points of [0, 1): the exact share of each slice, up to one point per boundary
        for (let k = 0; k < N; k++) counts[drawPrize(prizes, k / N)]!++
        prizes.forEach((p, i) => expect(Math.abs(counts[i]! - (N * p.weight) / total)).toBeLessThanOrEqual(1))
      }),
      { numRuns: 200 },
    )
  })

  it('slice boundaries: the point at a boundary belongs to the next slice', () => {
    expect(drawPrize([{ weight: 1 }], 0.999999)).toBe(0)
    expect(drawPrize([{ weight: 1 }, { weight: 3 }], 0.25)).toBe(1)
    expect(drawPrize([{ weight: 1 }, { weight: 3 }], 0.2499)).toBe(0)
  })
})

describe('roulette config', () => {
  it('parses the seed wheel and refuses broken ones', () => {
    const ok = parseRouletteConfig(
      JSON.stringify({
        dailyFreeTickets: 1,
        prizes: [
          { type: 'BONUS', amount: 1, weight: 3 },
          { type: 'NONE', amount: 0, weight: 1 },
        ],
        prizeExpiresDays: 30,
      }),
    )
    expect(ok?.prizes).toHaveLength(2)
    expect(parseRouletteConfig('{')).toBeNull()
    expect(parseRouletteConfig('{}')).toBeNull()
    expect(
      parseRouletteConfig(
        JSON.stringify({
          prizes: [
            { type: 'BONUS', amount: 0, weight: 1 },
            { type: 'NONE', amount: 0, weight: 1 },
          ],
        }),
      ),
    ).toBeNull()
    expect(
      parseRouletteConfig(
        JSON.stringify({
          prizes: [
            { type: 'BONUS', amount: 1, weight: 0 },
            { type: 'NONE', amount: 0, weight: 1 },
          ],
        }),
      ),
    ).toBeNull()
    expect(
      parseRouletteConfig(
        JSON.stringify({
          prizes: [
            { type: 'BONUS', amount: 1, weight: 1 },
            { type: 'NONE', amount: 0, weight: 1 },
          ],
        }),
      )?.dailyFreeTickets,
    ).toBe(0)
  })

  it('grants coins for a prize, nothing for NONE', () => {
    expect(prizeGrant({ type: 'BONUS', amount: 3 })).toEqual({ type: 'BONUS', amount: 3 })
    expect(prizeGrant({ type: 'NONE', amount: 0 })).toBeNull()
  })

  it('free spins renew at midnight in the edition time zone', () => {
    const now = new Date('2026-11-22T20:30:00Z')
    expect(localDay(now, 'Europe/Paris')).toBe('2026-11-22')
    expect(localDay(now, 'Asia/Seoul')).toBe('2026-11-23')
    expect(freeSlots('2026-11-22', 2)).toEqual(['2026-11-22#1', '2026-11-22#2'])
    expect(freeSlots('2026-11-22', 0)).toEqual([])
  })

  it('a spin names one event by a positive integer id', () => {
    expect(SpinRequest.safeParse({ eventId: 1 }).success).toBe(true)
    for (const bad of [{}, { eventId: 0 }, { eventId: '1' }, { eventId: 1.5 }, { eventId: 1, x: 1 }])
      expect(SpinRequest.safeParse(bad).success).toBe(false)
  })
})

describe('wheel drawing', () => {
  it('brings the drawn slice under the pointer, always turning forward', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 24 }), fc.nat(23), fc.double({ min: 0, max: 1e5, noNaN: true }), (n, i, current) => {
        const index = i % n
        const rot = landingRotation(current, index, n)
        expect(rot).toBeGreaterThan(current + 4 * 360)
        // the slice centre ((index + .5) * 360/n clockwise from the top) ends at 0° (mod 360)
        const centre = (((index + 0.5) * 360) / n + rot) % 360
        expect(Math.min(centre, 360 - centre)).toBeLessThan(1e-6)
      }),
    )
  })

  it('cuts the wheel into n slices that close at the top', () => {
    const slices = wheelSlices(4, 100)
    expect(slices).toHaveLength(4)
    expect(slices[0]!.path).toBe('M0 0 L0 -100 A100 100 0 0 1 100 0 Z')
    expect(slices[3]!.path).toBe('M0 0 L-100 0 A100 100 0 0 1 0 -100 Z')
  })
})
