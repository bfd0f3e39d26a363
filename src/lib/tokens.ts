/** How long the session's tokens live (spec §3): the access token, the refresh token. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60

/** Spec §3: each token has a value and an expiredAt time (ISO 8601). */
export type Token = { value: string; expiredAt: string }
/** One key per use: access-token signing, session-cookie encryption, CSRF cookie MACs, OAuth-state cookie encryption. */
export type TokenKeys = { access: Uint8Array; cookie: Uint8Array; csrf: Uint8Array; oauth: Uint8Array }
