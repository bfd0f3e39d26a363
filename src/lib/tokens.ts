/** How long the session's tokens live (spec §3): the access token, the refresh token. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60

/** Spec §3: each token has a value and an expiredAt time (ISO 8601). */
export type Token = { value: string; expiredAt: string }
/** One key per use: access-token signing, session-cookie encryption, CSRF cookie MACs, OAuth-state cookie encryption. */
type Key = Uint8Array<ArrayBuffer>
export type TokenKeys = { access: Key; cookie: Key; csrf: Key; oauth: Key }

/** Each key as jose uses it, imported once: given bytes, jose imports them again at every call (1.3 % of a sale's time). */
const imported = { HS256: new WeakMap<Key, Promise<CryptoKey>>(), A256GCM: new WeakMap<Key, Promise<CryptoKey>>() }

/** Key bytes `raw` (one of `TokenKeys`) as the CryptoKey of `alg`: HMAC-SHA-256 signing or AES-256-GCM encryption. */
export function cryptoKey(raw: Key, alg: keyof typeof imported): Promise<CryptoKey> {
  let key = imported[alg].get(raw)
  if (!key) {
    key =
      alg === 'HS256'
        ? crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
        : crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt'])
    imported[alg].set(raw, key)
  }
  return key
}
