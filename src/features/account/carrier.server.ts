/**
 * Korean carrier identity verification behind a small provider interface (issue 3 §6): `/nice/encode` starts it
 * with a signed request, the provider's page verifies the reader and posts a signed result to
 * `/callback/auth-mobilians`, which `completeCarrier` checks: a changed, made-up or replayed result is refused
 * with CARRIER_TAMPERED ("the result was tampered with in transit", spec §8). The local default is a sandbox
 * (`/nice/sandbox`) that plays the carrier and signs its result with the same secret.
 */
import { env } from 'cloudflare:workers'
import { isLocalRun } from '../../lib/server/local-run.ts'
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import type { UsersRow } from '../../lib/server/db-types.ts'
import { safeCallback } from '../../lib/redirect.ts'
import { randomToken } from '../../lib/secrets.ts'
import {
  CARRIER_REQUEST_TTL_SECONDS,
  CarrierRequest,
  CarrierResult,
  ageOn,
  sign,
  verify,
  type CarrierPurpose,
  type Signed,
} from './carrier.ts'
import { maskPhone } from './account.ts'
import { accountChanged } from '../age/age.server.ts'

/** A carrier identity service: where the reader's browser posts the request, and how its answer is read. */
export interface CarrierProvider {
  /** The form action the request is posted to. */
  action: string
  /** The form fields carrying the signed request. */
  requestFields(request: Signed): Record<string, string>
  /** The signed result in the fields the service posts back, or null when they are missing. */
  resultOf(fields: Record<string, unknown>): Signed | null
}

/** The local sandbox: plays the carrier at /nice/sandbox; fields named like the carrier's (EncodeData). */
export const sandboxProvider: CarrierProvider = {
  action: '/nice/sandbox',
  requestFields: (r) => ({ EncodeData: r.data, Mac: r.mac }),
  resultOf: (f) => (typeof f.EncodeData === 'string' && typeof f.Mac === 'string' ? { data: f.EncodeData, mac: f.Mac } : null),
}

/**
 * The carrier of this worker: today only the sandbox, which answers in local runs alone (no carrier contract is
 * configured in this repository). Null on a deployed worker: identity verification is unavailable there.
 */
function carrierProvider(): CarrierProvider | null {
  return isLocalRun() ? sandboxProvider : null
}

/**
 * The HMAC secret shared with the carrier: CARRIER_SECRET when set, else (local sandbox) one derived from
 * SESSION_SECRET with its own label. Neither: NO_SECRET.
 */
function carrierSecret(): string {
  const vars = env as unknown as Record<string, string | undefined>
  if (vars.CARRIER_SECRET && vars.CARRIER_SECRET.length >= 32) return vars.CARRIER_SECRET
  if (vars.SESSION_SECRET && vars.SESSION_SECRET.length >= 32) return `carrier-sandbox:${vars.SESSION_SECRET}`
  throw new AppError('NO_SECRET')
}

/**
 * GET /nice/encode: the signed request for the signed-in reader (no state is written until the result comes back);
 * null when this worker has no carrier (identity verification unavailable).
 */
export async function startCarrier(
  userId: number,
  purpose: CarrierPurpose,
  returnPath: string,
  now: Date = new Date(),
): Promise<{ action: string; fields: Record<string, string> } | null> {
  const provider = carrierProvider()
  if (!provider) return null
  const request: CarrierRequest = {
    id: randomToken(16),
    userId,
    purpose,
    returnPath: safeCallback(returnPath),
    exp: Math.floor(now.getTime() / 1000) + CARRIER_REQUEST_TTL_SECONDS,
  }
  return { action: provider.action, fields: provider.requestFields(await sign(carrierSecret(), 'request', request)) }
}

/** The sandbox's side: checks the site's request, then signs the identity the reader typed in as its result. */
export async function sandboxAnswer(request: Signed, identity: Omit<CarrierResult, 'request'>): Promise<Record<string, string>> {
  const secret = carrierSecret()
  const parsed = CarrierRequest.safeParse(await verify(secret, 'request', request))
  if (!parsed.success) throw new AppError('CARRIER_TAMPERED')
  const result = CarrierResult.safeParse({ ...identity, request: parsed.data })
  if (!result.success) throw new AppError('INVALID_PARAMETER')
  const signed = await sign(secret, 'result', result.data)
  return { EncodeData: signed.data, Mac: signed.mac }
}

export type CarrierOutcome = { purpose: CarrierPurpose; returnPath: string; phone: string; isAdultKr: boolean }

/**
 * /callback/auth-mobilians: the signed result. A wrong signature, a malformed payload or a result already used
 * → CARRIER_TAMPERED (nothing changes); past its 10 minutes → TIMEOUT. Then, once: the verified phone becomes
 * the reader's, and for ADULT_KR the reader's isAdultKr follows the verified birth date (edition adult age).
 */
export async function completeCarrier(
  db: Db,
  fields: Record<string, unknown>,
  opts: { adultAge: number; now?: Date },
): Promise<CarrierOutcome> {
  const now = opts.now ?? new Date()
  const signed = carrierProvider()?.resultOf(fields) ?? null
  if (!signed) throw new AppError('CARRIER_TAMPERED')
  const parsed = CarrierResult.safeParse(await verify(carrierSecret(), 'result', signed))
  if (!parsed.success) throw new AppError('CARRIER_TAMPERED')
  const r = parsed.data
  if (r.request.exp * 1000 <= now.getTime()) throw new AppError('TIMEOUT')
  const nowIso = now.toISOString()
  const adult = ageOn(r.birthDate, now) >= opts.adultAge
  const results = await db.batch([
    {
      sql: `INSERT INTO carrier_requests (id, user_id, purpose, return_path, created_at, expires_at, used_at, name, phone, birth_date, carrier)
            SELECT ?, id, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM users WHERE id = ? AND deleted_at IS NULL ON CONFLICT (id) DO NOTHING`,
      params: [
        r.request.id,
        r.request.purpose,
        r.request.returnPath,
        nowIso,
        new Date(r.request.exp * 1000).toISOString(),
        nowIso,
        r.name,
        r.phone,
        r.birthDate,
        r.carrier,
        r.request.userId,
      ],
    },
    {
      sql: `UPDATE users SET phone = ?, is_adult_kr = CASE WHEN ? = 'ADULT_KR' THEN ? ELSE is_adult_kr END, updated_at = ?
             WHERE id = ? AND deleted_at IS NULL AND (SELECT used_at FROM carrier_requests WHERE id = ?) = ? AND (SELECT user_id FROM carrier_requests WHERE id = ?) = ?`,
      params: [r.phone, r.request.purpose, adult ? 1 : 0, nowIso, r.request.userId, r.request.id, nowIso, r.request.id, r.request.userId],
    },
  ])
  if ((results[0]?.meta.changes ?? 0) !== 1) {
    const user = await db.first<Pick<UsersRow, 'id'>>(`SELECT id FROM users WHERE id = ? AND deleted_at IS NULL`, r.request.userId)
    throw new AppError(user ? 'CARRIER_TAMPERED' : 'NOT_FOUND_USER')
  }
  await accountChanged(r.request.userId)
  return {
    purpose: r.request.purpose,
    returnPath: r.request.returnPath,
    phone: maskPhone(r.phone),
    isAdultKr: r.request.purpose === 'ADULT_KR' && adult,
  }
}
