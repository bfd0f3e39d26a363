/**
 * Private uploads in the media bucket (issue 26 point 6): a support question's images live under
 * PRIVATE_MEDIA_PREFIX, which the public /media route never serves (only the author's own route does, uncached).
 */
export const PRIVATE_MEDIA_PREFIX = 'private/'
/** Support-question images stored before they moved under PRIVATE_MEDIA_PREFIX: private too. */
const LEGACY_PRIVATE_PREFIXES = ['qna/']

export function isPrivateMediaKey(key: string): boolean {
  return [PRIVATE_MEDIA_PREFIX, ...LEGACY_PRIVATE_PREFIXES].some((prefix) => key.startsWith(prefix))
}
