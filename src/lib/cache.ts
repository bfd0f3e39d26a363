/** The Cache-Control values pages and routes answer with, written once. */

/** How long the catalogue may be seen as it was: a page in the edge cache, an episode's sale terms (purchase.server.ts). */
export const CATALOGUE_KEEP_SECONDS = 60

/** A catalogue page: kept 60 s by the edge cache (per audience class), then served stale up to 10 minutes while it renders again. */
const CATALOGUE_PAGE = `public, max-age=0, s-maxage=${CATALOGUE_KEEP_SECONDS}, stale-while-revalidate=600`

/** Anything personal or changing: never stored by a browser or a shared cache. */
export const PERSONAL = 'private, no-store'

/**
 * Who a page is rendered for. Pages are cached per class, never per person, so everything a catalogue page
 * shows must follow from the class alone (spec §5):
 * - `guest`: not signed in; `guest-adult`: a jp guest whose not-logged-in-adult cookie says Y;
 * - `member`: signed in, adult status not proven (no check, expired after a year, kr without the phone check,
 *   th/tw without a birth date); `minor`: signed in with a known birth date under the edition's adult age;
 * - `adult`: adult with adult content on; `adult-off`: adult who switched adult content off.
 * On the edition with the BL toggle a signed-in reader who has not turned BL on gets the `-nobl` variant.
 */
export type AudienceBase = 'guest' | 'guest-adult' | 'member' | 'minor' | 'adult' | 'adult-off'
export type AudienceClass = AudienceBase | `${Exclude<AudienceBase, 'guest' | 'guest-adult'>}-nobl`

/** What a page is for caching: the same for every reader of an audience class, or someone's own (or changing). */
export type PageKind = 'catalogue' | 'personal'

/** A page says which kind it is (docs/ARCHITECTURE.md "Edge cache per audience class"); its Cache-Control header follows. */
export function pageIs(response: { headers: Headers }, kind: PageKind): void {
  response.headers.set('Cache-Control', kind === 'catalogue' ? CATALOGUE_PAGE : PERSONAL)
}
