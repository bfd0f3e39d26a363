/**
 * Image widths and the spec §9 image loader, apart from the catalogue's other rules (catalogue.ts re-exports them):
 * browser code that builds a cover's URL (home's "continue reading" row) loads these few lines, not the catalogue's
 * audience rules.
 */

/** Widths stored in R2 for covers and for episode slices (a subset of spec §9's loader widths). */
export const COVER_WIDTHS = [256, 384, 640] as const
export const SLICE_WIDTHS = [640, 828, 1080] as const

/** Spec §9 image loader: `url` + `w` → the stored object of the smallest stored width ≥ w. */
export function imageUrl(key: string, w: number, widths: readonly number[] = COVER_WIDTHS): string {
  const width = widths.find((x) => x >= w) ?? widths[widths.length - 1]
  return `/media/${key}/${width}.webp`
}

export function srcset(key: string, widths: readonly number[] = COVER_WIDTHS): string {
  return widths.map((w) => `/media/${key}/${w}.webp ${w}w`).join(', ')
}
