/** The Cache-Control values pages and routes answer with, written once. */

/** A catalogue page: kept 60 s by the edge cache (per audience class), then served stale up to 10 minutes while it renders again. */
export const CATALOGUE_PAGE = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600'

/** Anything personal or changing: never stored by a browser or a shared cache. */
export const PERSONAL = 'private, no-store'
