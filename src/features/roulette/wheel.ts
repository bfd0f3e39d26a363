/** The roulette wheel's motion, alone in its module: the page's script loads it without the roulette's schemas (issue 43 point 4). */

/**
 * The wheel's rotation (degrees, clockwise) that brings slice `index` of `n` under the top pointer after at
 * least `turns` full turns beyond `current`: the client animates to it, the server chose `index`.
 */
export function landingRotation(current: number, index: number, n: number, turns = 5): number {
  const target = 360 - ((index + 0.5) * 360) / n // slice centre at 0°
  const base = current - (((current % 360) + 360) % 360) + turns * 360
  return base + target
}
