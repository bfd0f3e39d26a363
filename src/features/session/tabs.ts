/**
 * What a page's script knows of the session before loading any of its code (site.ts, on every page):
 * - the `wt_signed=1` mark, readable, that the worker keeps beside the HttpOnly session cookie
 *   (functions/middleware/signed-mark.ts): the signed-in header's code and the reader's parts of pages load only
 *   where it is set, so a guest's page loads none of them. It carries nothing secret: the session itself is checked
 *   on every request;
 * - how a browser's tabs tell each other the session changed (spec §4): a message on the `wt-session`
 *   BroadcastChannel, and the account the browser saw last in localStorage, so a change a page load finds reaches
 *   the other tabs. The session client (store.ts) speaks it on signed-in pages; `noteSignedOut` on the others.
 */

export const SIGNED_MARK = 'wt_signed'

/** In the browser: whether the worker marked this browser as holding a session. */
export const markedSignedIn = (): boolean => document.cookie.split('; ').includes(`${SIGNED_MARK}=1`)

export const SESSION_CHANNEL = 'wt-session'
/** The account id this browser saw last ('' for none). */
export const IDENTITY_KEY = 'wt-session-identity'

/** On a page without the signed mark: if this browser last saw a signed-in reader, its other tabs are told. */
export function noteSignedOut(): void {
  try {
    if (!localStorage.getItem(IDENTITY_KEY)) return
    localStorage.setItem(IDENTITY_KEY, '')
  } catch {
    return // storage blocked: the other tabs follow when they become visible again
  }
  if (typeof BroadcastChannel !== 'function') return
  const channel = new BroadcastChannel(SESSION_CHANNEL)
  channel.postMessage({ type: 'session' })
  channel.close()
}

/**
 * On a signed-in page, whose header came drawn for the reader (HeaderMe.astro): runs `start` (the session client)
 * at the first sign the session may have changed since: another tab's message, this tab shown again (spec §4), or a
 * browser whose last page was signed out (a sign-in the other tabs must hear of). A browser that saw no account yet
 * remembers one it does not name (`?`), so a sign-out there still reaches the other tabs (`noteSignedOut`).
 */
export function onSessionChange(start: () => void): void {
  try {
    const seen = localStorage.getItem(IDENTITY_KEY)
    if (seen === '') return start()
    if (seen === null) localStorage.setItem(IDENTITY_KEY, '?')
  } catch {
    // storage blocked: the other signs still wake it
  }
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(SESSION_CHANNEL) : null
  const wake = () => {
    channel?.close()
    document.removeEventListener('visibilitychange', shown)
    start()
  }
  const shown = () => document.visibilityState === 'visible' && wake()
  if (channel) channel.onmessage = wake
  document.addEventListener('visibilitychange', shown)
}
