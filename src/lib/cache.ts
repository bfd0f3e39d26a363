/** The Cache-Control values pages and routes answer with, written once. */

/** A catalogue page: kept 60 s by the edge cache (per audience class), then served stale up to 10 minutes while it renders again. */
const CATALOGUE_PAGE = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600'

/** Anything personal or changing: never stored by a browser or a shared cache. */
export const PERSONAL = 'private, no-store'

/** What a page is for caching: the same for every reader of an audience class, or someone's own (or changing). */
export type PageKind = 'catalogue' | 'personal'

/** A page says which kind it is (docs/ARCHITECTURE.md "Edge cache per audience class"); its Cache-Control header follows. */
export function pageIs(response: { headers: Headers }, kind: PageKind): void {
  response.headers.set('Cache-Control', kind === 'catalogue' ? CATALOGUE_PAGE : PERSONAL)
}
