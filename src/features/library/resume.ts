/**
 * Where a reader goes back into a series (issue 25 §5): /library/recent, home's "continue reading" row and the
 * series page's main button all follow this rule. A finished episode offers the next one; otherwise the reader
 * continues where they stopped.
 */
import { viewerPlace } from '../viewer/place.ts'

/** An episode read this far counts as finished. */
const FINISHED_AT = 0.98

/** Whether a place this far into an episode has finished it (then the next episode is offered, when there is one). */
export const finished = (position: number): boolean => position >= FINISHED_AT

/** Where the reader stopped in a series (`nextEpisodeId`: the following published episode, if any). */
export type ReadingPlace = { episodeId: number; episodeNo: number; position: number; nextEpisodeId: number | null }

/** The viewer link to open, the episode number it opens and whether it is the next episode (else: resuming). */
export function resumeTarget(r: ReadingPlace): { href: string; no: number; next: boolean } {
  return finished(r.position) && r.nextEpisodeId !== null
    ? { href: `/viewer/${r.nextEpisodeId}`, no: r.episodeNo + 1, next: true }
    : { href: viewerPlace(r.episodeId, finished(r.position) ? null : r.position), no: r.episodeNo, next: false }
}
