/**
 * A place in an episode as a viewer URL (issue 25 §5), apart from the viewer's reading rules (reading.ts): home's
 * "continue reading" row and the series page's main button build it (library/resume.ts) without loading those.
 */

/** Query parameter of a viewer URL holding a position (0..1) to open at, e.g. after logging in. */
export const POSITION_PARAM = 'p'

/** The viewer URL of episode `episodeId` at `position` (kept to 3 decimals; none at the top). */
export function viewerPlace(episodeId: number, position: number | null): string {
  const p = position === null ? 0 : Math.min(1, Math.max(0, Math.round(position * 1000) / 1000))
  return p > 0 ? `/viewer/${episodeId}?${POSITION_PARAM}=${p}` : `/viewer/${episodeId}`
}
