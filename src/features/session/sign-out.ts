/**
 * Spec §8 NOT_FOUND_ACCESS_TOKEN → logout (the API client's follow-up, src/features/session/api-client.ts): the session
 * service ends the session, then the sign-in page tells the reader why (the catalogue's message, `?error=`) and
 * leads back to the episode on screen (the viewer's login link, loaded there only: the viewer sits above the session);
 * elsewhere the page reloads as a guest's.
 */
import { send } from './api.ts'

export async function signOut(): Promise<void> {
  try {
    const { csrfToken } = (await (await send('/api/auth/csrf')).json()) as { csrfToken: string }
    await send('/api/auth/signout', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ csrfToken, callbackUrl: location.pathname, json: 'true' }),
    })
  } catch {
    /* the page below is shown either way */
  }
  const episode = /^\/viewer\/(\d+)$/.exec(location.pathname)?.[1]
  if (!episode) return location.assign(location.pathname)
  const { viewerLoginHref } = await import('../viewer/reading.ts')
  location.assign(`${viewerLoginHref(Number(episode), null)}&error=NOT_FOUND_ACCESS_TOKEN`)
}
