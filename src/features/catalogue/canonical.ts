/**
 * Canonical addresses (issue 5 §6, issue 19 point 3), apart from the rest of seo.ts so the viewer's island can
 * share an episode by its canonical URL without bundling the editions' files. Pure.
 */

/**
 * A page's canonical path: without a trailing slash (prerendered pages such as /benefit see `/benefit/` at
 * build time, but are served, listed in the sitemap and linked as `/benefit`).
 */
export function canonicalPath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname
}

/**
 * A page's canonical URL: the edition's public origin and the canonical path. The `<link rel=canonical>` of every
 * page and the link a reader shares (issue 19 point 3: its card is the page's link card).
 */
export function canonicalUrl(pathname: string, siteUrl: string): string {
  return new URL(canonicalPath(pathname), siteUrl).href
}
