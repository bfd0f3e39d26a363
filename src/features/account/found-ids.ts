/**
 * Spec §2/§9 find IDs: the result (masked IDs, at most 20, and how many the phone has) travels from the verified
 * SMS code to the result page in a short-lived encrypted cookie, never in the URL — a crafted link cannot make the
 * page show IDs the server did not find. JWE `dir` + A256GCM under the cookie key, subject `find-id` (so no other
 * cookie sealed with that key passes for it), 10 minutes. Pure: keys and clock are arguments.
 */
import { EncryptJWT, jwtDecrypt } from 'jose'
import { cryptoKey, type TokenKeys } from '../../lib/tokens.ts'
import { FIND_ID_MAX } from './account.ts'

export const FOUND_IDS_COOKIE = 'wt_find_id'
export const FOUND_IDS_PATH = '/user/findId'
export const FOUND_IDS_TTL_SECONDS = 10 * 60
const SUBJECT = 'find-id'

export type FoundIds = { ids: string[]; total: number }

export async function sealFoundIds(keys: TokenKeys, found: FoundIds, now: Date = new Date()): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000)
  return new EncryptJWT({ ids: found.ids.slice(0, FIND_ID_MAX), total: found.total })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setSubject(SUBJECT)
    .setIssuedAt(iat)
    .setExpirationTime(iat + FOUND_IDS_TTL_SECONDS)
    .encrypt(await cryptoKey(keys.cookie, 'A256GCM'))
}

/** The result in a cookie value; null when absent, forged, tampered with, of another kind or past 10 minutes. */
export async function openFoundIds(keys: TokenKeys, value: string | undefined, now: Date = new Date()): Promise<FoundIds | null> {
  if (!value || value.length > 8192) return null
  try {
    const { payload } = await jwtDecrypt(value, await cryptoKey(keys.cookie, 'A256GCM'), {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
      subject: SUBJECT,
      currentDate: now,
      requiredClaims: ['exp'],
    })
    const { ids, total } = payload
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string') || typeof total !== 'number') return null
    return { ids: ids.slice(0, FIND_ID_MAX), total }
  } catch {
    return null
  }
}
