/**
 * The discreet library without I/O (issue 12 point 5): a reader keeps a series out of their own lists
 * (/library/my, /library/favorite, /library/recent, home's continue-reading row) and brings it back from
 * /library/hidden. Hiding changes no holding, progress or favourite: only the listing.
 */
import { z } from 'zod'
import { RowId } from '../../lib/ids.ts'

/** `POST /api/v1/library/hidden`: hide (`hidden: true`) or bring back (`false`) one series; repeatable. */
export const HiddenRequest = z.object({ seriesId: RowId, hidden: z.boolean() }).strict()

/** The library pages a hide or show form is posted from, and goes back to. */
const LIBRARY_PAGES = ['my', 'favorite', 'recent', 'hidden'] as const
export type LibraryPage = (typeof LIBRARY_PAGES)[number]

/** The no-JavaScript form's own field: the page it was posted from. */
export const FromPage = z.object({ from: z.enum(LIBRARY_PAGES) })

/**
 * Where a form lands: back on its page, saying what happened — `?hidden=<id>` (the page offers to undo it) or
 * `?shown=1` — or `?error=<CODE>`; a page name that is not one of ours goes to /library/my.
 */
export function libraryPageAfter(from: unknown, outcome: { hidden: number } | { shown: true } | { error: string }): string {
  const page = LIBRARY_PAGES.find((p) => p === from) ?? 'my'
  const query = 'hidden' in outcome ? `hidden=${outcome.hidden}` : 'shown' in outcome ? 'shown=1' : `error=${outcome.error}`
  return `/library/${page}?${query}`
}
