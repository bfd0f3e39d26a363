/**
 * Web Push delivery (issue 13 point 2, docs/API.md "Web Push"): the reader's subscriptions (one row per browser push
 * endpoint) and `deliverPush`, the one function that sends a push to a reader, honouring their settings (`pushDecision`).
 * Requests are built with @block65/webcrypto-web-push (RFC 8291 aes128gcm, RFC 8292 VAPID, Web Crypto only).
 */
import { buildPushPayload } from '@block65/webcrypto-web-push'
import { edition } from 'virtual:edition'
import type { Db } from '../../lib/server/db.ts'
import type { PushSubscriptionsRow } from '../../lib/server/db-types.ts'
import { isLocalRun } from '../../lib/server/local-run.ts'
import { pushSettings } from '../account/account.server.ts'
import { PROVIDER_TIMEOUT_MS } from '../../lib/messaging/messaging.ts'
import { MAX_PUSH_SUBSCRIPTIONS, pushDecision, type PushMessage, type PushSubscriptionBody } from './push.ts'

/**
 * The bindings delivery reads: the VAPID key pair (base64url, as `web-push generate-vapid-keys` prints it: the public
 * key a var, the private key a secret) and subject (a mailto: or https: URL the push services may contact).
 */
export type PushEnv = { VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string; VAPID_SUBJECT?: string; PUSH_SERVICE_BASE?: string }

/** How long a push service keeps an undelivered push (RFC 8030 TTL). */
const PUSH_TTL_SECONDS = 12 * 3600

/**
 * Stores the browser's subscription for the reader; false when the reader already has `MAX_PUSH_SUBSCRIPTIONS`
 * other browsers (checked and written in one statement, so concurrent subscriptions cannot pass it).
 */
export async function saveSubscription(db: Db, userId: number, sub: PushSubscriptionBody, now: Date): Promise<boolean> {
  const at = now.toISOString()
  // the endpoint belongs to the browser: the reader who subscribes it last receives its pushes
  const changed = await db.run(
    `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at, updated_at)
     SELECT id, ?, ?, ?, ?, ? FROM users WHERE id = ? AND deleted_at IS NULL
       AND (SELECT count(*) FROM push_subscriptions WHERE user_id = ? AND endpoint <> ?) < ?
     ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
       updated_at = excluded.updated_at`,
    sub.endpoint,
    sub.keys.p256dh,
    sub.keys.auth,
    at,
    at,
    userId,
    userId,
    sub.endpoint,
    MAX_PUSH_SUBSCRIPTIONS,
  )
  return changed > 0
}

/** Removes the reader's own subscription of `endpoint` (another reader's row is left alone); true when one went. */
export async function removeSubscription(db: Db, userId: number, endpoint: string): Promise<boolean> {
  return (await db.run(`DELETE FROM push_subscriptions WHERE user_id = ? AND endpoint = ?`, userId, endpoint)) > 0
}

export type PushOutcome =
  | { status: 'skipped'; reason: 'off' | 'kind-off' | 'no-subscription' | 'not-configured' }
  | { status: 'held'; holdUntil: string }
  | { status: 'sent'; delivered: number; removed: number; failed: { subscriptionId: number; httpStatus: number | null }[] }

/**
 * Sends `message` to every subscribed browser of the reader, if their settings allow it now (spec §3, §9). A push at
 * night is `held` until 08:00 in the edition's time zone: the caller retries then. An endpoint the push service no
 * longer knows (404, 410) is removed; other failures are listed in `failed` for the caller to retry.
 */
export async function deliverPush(
  env: PushEnv,
  db: Db,
  userId: number,
  message: PushMessage,
  now: Date = new Date(),
): Promise<PushOutcome> {
  const settings = await pushSettings(db, userId)
  if (!settings) return { status: 'skipped', reason: 'off' }
  const decision = pushDecision(settings, message.kind, now, edition.timeZone)
  if (!decision.send)
    return decision.reason === 'night'
      ? { status: 'held', holdUntil: decision.holdUntil.toISOString() }
      : { status: 'skipped', reason: decision.reason }
  if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY || !env.VAPID_SUBJECT) return { status: 'skipped', reason: 'not-configured' }
  const subs = await db.all<Pick<PushSubscriptionsRow, 'id' | 'endpoint' | 'p256dh' | 'auth'>>(
    `SELECT id, endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = ?`,
    userId,
  )
  if (subs.length === 0) return { status: 'skipped', reason: 'no-subscription' }
  const results = await Promise.all(subs.map((s) => send(env, s, message)))
  const gone = subs.filter((_, i) => results[i] === 404 || results[i] === 410).map((s) => s.id)
  if (gone.length > 0) await db.run(`DELETE FROM push_subscriptions WHERE id IN (${gone.map(() => '?').join(', ')})`, ...gone)
  const failed = subs
    .map((s, i) => ({ subscriptionId: s.id, httpStatus: results[i] ?? null }))
    .filter((r) => r.httpStatus === null || (r.httpStatus >= 300 && r.httpStatus !== 404 && r.httpStatus !== 410))
  return { status: 'sent', delivered: results.filter((r) => r !== null && r >= 200 && r < 300).length, removed: gone.length, failed }
}

/** One push request; the push service's HTTP status, or null when it could not be reached in time. */
async function send(
  env: PushEnv,
  sub: Pick<PushSubscriptionsRow, 'endpoint' | 'p256dh' | 'auth'>,
  message: PushMessage,
): Promise<number | null> {
  try {
    const request = await buildPushPayload(
      {
        data: { kind: message.kind, title: message.title, body: message.body, url: message.url, icon: '/favicon.svg' },
        options: { ttl: PUSH_TTL_SECONDS, urgency: 'normal' },
      },
      { endpoint: sub.endpoint, expirationTime: null, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      { subject: env.VAPID_SUBJECT ?? '', publicKey: env.VAPID_PUBLIC_KEY ?? '', privateKey: env.VAPID_PRIVATE_KEY ?? '' },
    )
    const res = await fetch(target(env, sub.endpoint), { ...request, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) })
    await res.body?.cancel()
    return res.status
  } catch {
    return null
  }
}

/** In a local run `PUSH_SERVICE_BASE` stands in for every push service's origin (the tests' local push service). */
function target(env: PushEnv, endpoint: string): string {
  if (!env.PUSH_SERVICE_BASE || !isLocalRun()) return endpoint
  const u = new URL(endpoint)
  return `${env.PUSH_SERVICE_BASE}${u.pathname}${u.search}`
}
