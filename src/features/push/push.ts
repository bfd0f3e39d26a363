/**
 * Web Push (issue 13 point 2): the subscription a browser sends (RFC 8030/8291), and the rule that decides whether a
 * push goes out now, is held until morning or is not sent, from the reader's push settings (spec §3) and night hours
 * (spec §9: 22:00–08:00 in the edition's time zone). Pure.
 */
import { z } from 'zod'
import { wallClock } from '../../lib/time.ts'
import type { PushSettings } from '../account/account.server.ts'

const b64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+=*$/)

/**
 * The push services browsers subscribe with (issue 34 point 4): Chrome, Edge's Chromium, Opera and Samsung Internet
 * (FCM), Firefox (Mozilla's autopush), Safari (Apple) and Edge's WNS, each by its host or the host's domain. An
 * endpoint anywhere else (loopback, a private range, a metadata address, another port) is never fetched.
 */
const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'push.services.mozilla.com', 'push.apple.com', 'notify.windows.com'] as const

/** True for an https URL on a browser's push service (its host or a subdomain of it), on the default port. */
function isPushServiceEndpoint(endpoint: string): boolean {
  if (!URL.canParse(endpoint)) return false
  const u = new URL(endpoint)
  if (u.protocol !== 'https:' || u.port !== '' || u.username || u.password) return false
  return PUSH_SERVICE_HOSTS.some((h) => u.hostname === h || u.hostname.endsWith(`.${h}`))
}

const Endpoint = z
  .url({ protocol: /^https$/ })
  .max(1024)
  .refine(isPushServiceEndpoint, 'not a browser push service')

/** A reader's browsers that may receive pushes (one subscription each); the 11th is refused with this reason. */
export const MAX_PUSH_SUBSCRIPTIONS = 10
export const TOO_MANY_SUBSCRIPTIONS = 'TOO_MANY_SUBSCRIPTIONS'

/** What `PushSubscription.toJSON()` gives: an https endpoint of the browser's push service and its two keys. */
export const PushSubscriptionBody = z.object({
  endpoint: Endpoint,
  expirationTime: z.number().min(0).max(8.64e15).nullable().optional(), // a time value (ms), as the browser gives it
  keys: z.object({ p256dh: b64url(128), auth: b64url(64) }),
})
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>
export const PushEndpointBody = z.object({ endpoint: z.url({ protocol: /^https$/ }).max(1024) })

/** What a push is about: new episodes follow the contents consent, tickets (FreeTime) the FreeTime consent. */
export const PUSH_KINDS = ['contents', 'freetime', 'notice'] as const
export type PushKind = (typeof PUSH_KINDS)[number]
export type PushMessage = { kind: PushKind; title: string; body: string; url: string }

/** Spec §9: night push hours, in the edition's time zone. */
const NIGHT_START_HOUR = 22
const NIGHT_END_HOUR = 8

export type PushDecision = { send: true } | { send: false; reason: 'off' | 'kind-off' } | { send: false; reason: 'night'; holdUntil: Date }

/** The next 08:00 in `timeZone` after `now` (a night that changes the clock is corrected once). */
function nightEnd(now: Date, timeZone: string): Date {
  const { hour, minute, second } = wallClock(now, timeZone)
  const hours = hour >= NIGHT_END_HOUR ? 24 - hour + NIGHT_END_HOUR : NIGHT_END_HOUR - hour
  const guess = new Date(Math.floor(now.getTime() / 1000) * 1000 + (hours * 3600 - minute * 60 - second) * 1000)
  const drift = wallClock(guess, timeZone).hour - NIGHT_END_HOUR
  return new Date(guess.getTime() - drift * 3600 * 1000)
}

function isNight(now: Date, timeZone: string): boolean {
  const { hour } = wallClock(now, timeZone)
  return hour >= NIGHT_START_HOUR || hour < NIGHT_END_HOUR
}

/** Spec §3/§9: push off → nothing; the kind's consent off → nothing; at night → held unless night push is agreed. */
export function pushDecision(
  settings: Pick<PushSettings, 'isAgreePush' | 'isAgreePushNight' | 'isAgreePushContents' | 'isAgreePushFreetime'>,
  kind: PushKind,
  now: Date,
  timeZone: string,
): PushDecision {
  if (!settings.isAgreePush) return { send: false, reason: 'off' }
  if ((kind === 'contents' && !settings.isAgreePushContents) || (kind === 'freetime' && !settings.isAgreePushFreetime))
    return { send: false, reason: 'kind-off' }
  if (!settings.isAgreePushNight && isNight(now, timeZone)) return { send: false, reason: 'night', holdUntil: nightEnd(now, timeZone) }
  return { send: true }
}
