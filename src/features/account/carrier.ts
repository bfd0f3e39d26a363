/**
 * Korean mobile-carrier identity verification (spec §2 /callback/auth-mobilians, §7 GET /nice/encode, §8 "the
 * result was tampered with in transit"). The site hands the reader to the carrier's identity service with a
 * signed request; the service posts the identity result back, signed. Both are HMAC-SHA256 over a base64url JSON
 * payload, so a result changed on the way (or made up) fails the check. Pure apart from WebCrypto (Node and workerd).
 */
import { z } from 'zod'
import { fromB64url, toB64url } from '../../lib/b64url.ts'

/** The reader has 10 minutes to finish at the carrier (like an SMS code, spec §9). */
export const CARRIER_REQUEST_TTL_SECONDS = 10 * 60
export const CARRIER_PURPOSES = ['ADULT_KR', 'PHONE'] as const
export type CarrierPurpose = (typeof CARRIER_PURPOSES)[number]
export const CARRIERS = ['SKT', 'KT', 'LGU', 'SKT_MVNO', 'KT_MVNO', 'LGU_MVNO'] as const

/** What the site asks for: who, why, where to go back; `id` is a random single-use request id. */
export const CarrierRequest = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
  userId: z.number().int().positive(),
  purpose: z.enum(CARRIER_PURPOSES),
  returnPath: z.string().max(512),
  exp: z.number().int(),
})
export type CarrierRequest = z.infer<typeof CarrierRequest>

/** What the carrier answers: the request it answers, and the identity it verified. */
export const CarrierResult = z.object({
  request: CarrierRequest,
  name: z.string().min(1).max(64),
  phone: z.string().regex(/^\+?\d{8,15}$/),
  birthDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  carrier: z.enum(CARRIERS),
})
export type CarrierResult = z.infer<typeof CarrierResult>

/** A signed message as it travels in a form: `data` (base64url JSON) and `mac` (base64url HMAC-SHA256). */
export type Signed = { data: string; mac: string }

const encoder = new TextEncoder()

async function hmac(secret: string, label: string, data: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${label}.${data}`)))
}

/** Signs `payload` for one direction (`label`: 'request' or 'result', so one can never pass as the other). */
export async function sign(secret: string, label: 'request' | 'result', payload: unknown): Promise<Signed> {
  const data = toB64url(encoder.encode(JSON.stringify(payload)))
  return { data, mac: toB64url(await hmac(secret, label, data)) }
}

/** The payload when `mac` is the right HMAC of `data` (constant-time compare), else null. */
export async function verify(secret: string, label: 'request' | 'result', signed: Signed): Promise<unknown | null> {
  if (signed.data.length > 8192) return null
  const given = fromB64url(signed.mac)
  const expected = await hmac(secret, label, signed.data)
  if (!given || given.length !== expected.length) return null
  let diff = 0
  for (let i = 0; i < expected.length; i++) diff |= expected[i]! ^ given[i]!
  if (diff !== 0) return null
  const bytes = fromB64url(signed.data)
  if (!bytes) return null
  try {
    return JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    return null
  }
}

/** Full years between `birthDate` (YYYY-MM-DD) and `now` (UTC calendar). */
export function ageOn(birthDate: string, now: Date): number {
  const [y, m, d] = birthDate.split('-').map(Number) as [number, number, number]
  let age = now.getUTCFullYear() - y
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) age--
  return age
}
