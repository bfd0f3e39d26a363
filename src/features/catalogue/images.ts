/**
 * Image widths and the spec §7/§9 image loader, apart from the catalogue's other rules (catalogue.ts re-exports them):
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

/** Spec §9: the image loader's widths (the sizes of small images, then device widths) and its default quality. */
export const LOADER_WIDTHS = [16, 32, 48, 64, 96, 128, 256, 384, 640, 750, 828, 1080, 1200, 1920, 2048, 3840] as const
export const LOADER_QUALITY = 75

/**
 * Spec §7/§9 image loader (`url`, `w`; `q` left at its default): image `key` `w` pixels wide. A stored width is its
 * object as it is; any other is made by GET /media/image from the smallest stored rendition at least as wide.
 */
function loaderUrl(key: string, w: number, widths: readonly number[]): string {
  if (widths.includes(w)) return `/media/${key}/${w}.webp`
  return `/media/image?${new URLSearchParams({ url: imageUrl(key, w, widths), w: String(w) })}`
}

/**
 * A `srcset` with the loader's sizes from `from` px up to the smallest stored width, then the stored widths: for small
 * images (a 96 px cover in a list), which a screen of density 1 takes at 96 px rather than the 256 px file. Server
 * pages only: the browser's code keeps `srcset` (the loader's few lines stay out of its bundles).
 */
export function loaderSrcset(key: string, from: number, widths: readonly number[] = COVER_WIDTHS): string {
  const small = LOADER_WIDTHS.filter((w) => w >= from && w < widths[0]!)
  return [...small, ...widths].map((w) => `${loaderUrl(key, w, widths)} ${w}w`).join(', ')
}
