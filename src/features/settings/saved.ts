/**
 * Spec §2 app settings "clear cache", on the web: what the service worker (public/sw.js) keeps on this device
 * for offline reading, as the settings page lists it. The worker's answer is read defensively (no zod: this
 * runs in the page's script): an entry saved by an older viewer has no names, a malformed one is left out.
 */

export type SavedEpisode = {
  episodeId: number
  /** Series and episode names as the viewer showed them; null when the entry predates them. */
  series: string | null
  episode: string | null
  /** The rental's end (ISO 8601), null for an owned episode. */
  expiresAt: string | null
}

const nameOf = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null)

function savedEpisode(item: unknown): SavedEpisode | null {
  if (item === null || typeof item !== 'object') return null
  const { episodeId, series, episode, expiresAt } = item as Record<string, unknown>
  if (typeof episodeId !== 'number' || !Number.isSafeInteger(episodeId) || episodeId <= 0) return null
  if (expiresAt !== null && (typeof expiresAt !== 'string' || Number.isNaN(Date.parse(expiresAt)))) return null
  return { episodeId, series: nameOf(series), episode: nameOf(episode), expiresAt }
}

/** The saved episodes of the worker's `list` answer: rentals first, the soonest to end first, then the owned ones by series and episode. */
export function savedEpisodes(items: unknown, locale: string): SavedEpisode[] {
  if (!Array.isArray(items)) return []
  const saved = items.map(savedEpisode).filter((e) => e !== null)
  const collator = new Intl.Collator(locale, { numeric: true })
  const end = (e: SavedEpisode) => (e.expiresAt === null ? Number.MAX_VALUE : Date.parse(e.expiresAt))
  return saved.sort(
    (a, b) =>
      end(a) - end(b) ||
      collator.compare(a.series ?? '', b.series ?? '') ||
      collator.compare(a.episode ?? '', b.episode ?? '') ||
      a.episodeId - b.episodeId,
  )
}
