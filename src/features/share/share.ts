/**
 * Sharing a series or an episode (issue 19 point 3): the system share sheet where the browser has one that takes
 * the link, else the link copied with a toast. The link is always the page's canonical URL (`canonicalUrl` in
 * src/features/catalogue/canonical.ts), so the card the other side sees is the page's link card. Pure: the browser
 * part is share.client.ts (loaded on use by share-buttons.ts).
 */

/** What `navigator.share` receives. */
export type ShareData = { title: string; text: string; url: string }

/** The parts of `navigator` this rule reads (both are missing in many desktop browsers). */
export type ShareNavigator = { share?: unknown; canShare?: (data: ShareData) => boolean }

/** The share sheet when the browser has one that accepts this data (`canShare`, where it exists), else a copy. */
export function shareMethod(nav: ShareNavigator, data: ShareData): 'sheet' | 'copy' {
  if (typeof nav.share !== 'function') return 'copy'
  if (typeof nav.canShare === 'function' && !nav.canShare(data)) return 'copy'
  return 'sheet'
}

/** The reader closed the share sheet (an `AbortError`): nothing is shown, nothing is copied. */
export function isCancel(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError'
}

/** `{title}` in the edition's share text ("Lisez « {title} » sur Bomtoon"). */
export function shareText(template: string, title: string): string {
  return template.replace('{title}', () => title) // a function: a `$&` in a title stays as written
}
