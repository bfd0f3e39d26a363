/**
 * Returning after a login started in the viewer (spec §2 /callback/viewer-login-success): the viewer's login link, and
 * the sign-out's way back to the episode on screen (sign-out.ts).
 */

/** The page that finishes a login started in the viewer; it sends the reader back to `returnTo`. */
const VIEWER_LOGIN_SUCCESS = '/callback/viewer-login-success'

/**
 * The login link of the viewer: after logging in, /callback/viewer-login-success saves `position` as the
 * reader's progress and sends them back to episode `episodeId` (`callback` = the viewer path, `position` 0..1).
 */
export function viewerLoginHref(episodeId: number, position: number | null): string {
  const p = position === null ? 0 : Math.min(1, Math.max(0, Math.round(position * 1000) / 1000))
  const back = new URLSearchParams({ callback: `/viewer/${episodeId}` })
  if (p > 0) back.set('position', String(p))
  return `/user/login?callback=${encodeURIComponent(`${VIEWER_LOGIN_SUCCESS}?${back}`)}`
}
