/**
 * Mail and SMS delivery (issue 3 §6, issue 22): the account and support flows send through `messageProvider`
 * only. One rule picks the provider: where the local run is on (`isLocalRun`, the switch of
 * /dev/outbox and the sandboxes) every message is a row of the D1 outbox, so each flow can be finished
 * offline; everywhere else mail goes through Cloudflare Email Service (the `EMAIL` send_email binding) and SMS
 * through Twilio's Messages API, and D1 keeps only a delivery log (template, keyed hash of the recipient,
 * provider message id, status, time): never a body, a code or a link.
 */
import { env } from 'cloudflare:workers'
import { edition as builtEdition } from 'virtual:edition'
import { AppError } from '../errors/catalogue.ts'
import type { Edition } from '../edition/schema.ts'
import type { Db } from '../server/db.ts'
import type { DeliveriesRow } from '../server/db-types.ts'
import { tryGetContext } from 'hono/context-storage'
import { isLocalRun } from '../server/local-run.ts'
import {
  PROVIDER_TIMEOUT_MS,
  TWILIO_DEFAULT_BASE,
  canSendMail,
  canSendSms,
  isNotice,
  qnaReplyAddress,
  readTwilioAnswer,
  renderMail,
  twilioRequest,
  type ProviderOutcome,
  type TwilioConfig,
} from './messaging.ts'

type OutgoingMessage = {
  channel: 'MAIL' | 'SMS'
  /** E-mail address or phone number (E.164). */
  recipient: string
  /** Which flow sent it (e.g. `reset-password`, `sms-find_id`; list in messaging.ts); tests and operators filter on it. */
  template: string
  /** Mail subject (SMS has none). */
  subject?: string
  body: string
  /** Structured extras for tooling (never secrets beyond what the body already says). */
  meta?: Record<string, unknown>
}

export interface MessageProvider {
  send(message: OutgoingMessage, now?: Date): Promise<void>
}

/** The local provider: one outbox row per message. */
function outboxProvider(db: Db): MessageProvider {
  return {
    async send(m, now = new Date()) {
      await db.run(
        `INSERT INTO outbox (channel, recipient, template, subject, body, meta, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        m.channel,
        m.recipient,
        m.template,
        m.subject ?? null,
        m.body,
        m.meta ? JSON.stringify(m.meta) : null,
        now.toISOString(),
      )
    },
  }
}

/** The request the edge app is answering (Hono's context storage), if any: its id and edition. */
const currentRequest = () => tryGetContext<{ Variables: { requestId?: string; edition?: Edition } }>()?.var

/** The edition of the current request (the built one outside a request). */
const currentEdition = (): Edition => currentRequest()?.edition ?? builtEdition

/** Which channels this edition can deliver now: both in a local run, else those configured with their secrets. */
export function deliveryChannels(edition: Edition = currentEdition()): { mail: boolean; sms: boolean } {
  if (isLocalRun()) return { mail: true, sms: true } // the local run: the outbox is the provider of both channels
  return { mail: canSendMail(edition, env), sms: canSendSms(edition, env) }
}

/** The provider of this request: the outbox in a local run, else the edition's mail and SMS providers. */
export function messageProvider(db: Db): MessageProvider {
  if (isLocalRun()) return outboxProvider(db)
  const edition = currentEdition()
  return deliveringProvider(db, currentRequest()?.requestId ?? 'none', {
    mail: canSendMail(edition, env) ? mailTransport(edition, env.EMAIL!) : undefined,
    sms: canSendSms(edition, env) ? twilioTransport(twilioConfig()) : undefined,
  })
}

type Transport = { provider: string; send(m: OutgoingMessage): Promise<ProviderOutcome> }

/**
 * Sends through the channel's transport and logs it. Idempotent by request: the log row is claimed first under
 * a keyed hash of (request id, message), so one request never hands the same message over twice (a failed
 * one may be tried again, a sent or timed-out one not). A failure or time-out of a message the reader waits
 * for (a code, a link) gives RETRY, the code already stored stays valid; a refused phone number gives
 * INVALID_PARAMETER; a notice's failure is only logged.
 */
function deliveringProvider(db: Db, requestId: string, transports: { mail?: Transport; sms?: Transport }): MessageProvider {
  return {
    async send(m, now = new Date()) {
      const transport = m.channel === 'MAIL' ? transports.mail : transports.sms
      if (!transport) throw new AppError(m.channel === 'MAIL' ? 'EMAIL_REQUIRES_ADAPTER_ERROR' : 'NOT_EXIST')
      const nowIso = now.toISOString()
      const key = await keyedHash(`delivery\n${requestId}\n${m.channel}\n${m.template}\n${m.recipient}\n${m.subject ?? ''}\n${m.body}`)
      const claimed = await db.first<Pick<DeliveriesRow, 'id'>>(
        `INSERT INTO deliveries (dedupe_key, channel, template, recipient_hash, provider, status, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, 'SENDING', ?6, ?6)
         ON CONFLICT (dedupe_key) DO UPDATE SET status = 'SENDING', updated_at = ?6 WHERE deliveries.status = 'FAILED'
         RETURNING id`,
        key,
        m.channel,
        m.template,
        await recipientHash(m.recipient),
        transport.provider,
        nowIso,
      )
      if (!claimed) return
      const outcome = await withTimeout(transport.send(m), PROVIDER_TIMEOUT_MS).catch(
        (e: unknown): ProviderOutcome & { timedOut?: true } =>
          e instanceof TimeoutError || (e as Error | null)?.name === 'TimeoutError'
            ? { ok: false, rejected: false, code: 'timeout', timedOut: true }
            : { ok: false, rejected: false, code: 'error' },
      )
      const status = outcome.ok ? 'SENT' : 'timedOut' in outcome ? 'TIMEOUT' : outcome.rejected ? 'REJECTED' : 'FAILED'
      await db.run(
        `UPDATE deliveries SET status = ?, provider_message_id = ?, error = ?, updated_at = ? WHERE id = ?`,
        status,
        outcome.ok ? outcome.id : null,
        outcome.ok ? null : outcome.code,
        new Date().toISOString(),
        claimed.id,
      )
      if (outcome.ok || isNotice(m.template)) return
      if (outcome.rejected && m.channel === 'SMS') throw new AppError('INVALID_PARAMETER', { fields: 'phone' })
      throw new AppError('RETRY')
    },
  }
}

class TimeoutError extends Error {}
function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new TimeoutError()), ms)))]).finally(() =>
    clearTimeout(timer),
  )
}

/** HMAC-SHA256 under the pepper (hex): recipients and message keys are never stored in the clear. */
async function keyedHash(value: string): Promise<string> {
  const secret = env.PASSWORD_PEPPER
  if (!secret) throw new AppError('NO_SECRET')
  const enc = new TextEncoder()
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(value)))
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** The delivery log's recipient column: operators find a reader's messages by hashing the address the same way. */
const recipientHash = (recipient: string) => keyedHash(`recipient\n${recipient.trim().toLowerCase()}`)
/** The signature in the reply address of a support answer (20 hex characters: the address survives lower-casing). */
export const qnaReplySignature = async (qnaId: number) => (await keyedHash(`qna-reply\n${qnaId}`)).slice(0, 20)

/**
 * Cloudflare Email Service: the edition's sender and name, the rendered text and HTML parts, transactional
 * headers. A support answer is replied to at its own signed address (the worker's `email()` handler puts the
 * reply on the question) where the edition takes replies in, else at the support address.
 */
function mailTransport(edition: Edition, binding: SendEmail): Transport {
  const mail = edition.mail!
  return {
    provider: 'cloudflare-email',
    async send(m) {
      const parts = renderMail(edition, m.subject ?? '', m.body)
      const qnaId = m.template.startsWith('qna-') ? Number(m.meta?.qnaId) : NaN
      const replyTo =
        m.template === 'qna-answered' && mail.inboundReplies && Number.isInteger(qnaId)
          ? qnaReplyAddress(mail.replyTo, qnaId, await qnaReplySignature(qnaId))
          : mail.replyTo
      const sent = await binding.send({
        from: { name: mail.fromName, email: mail.from },
        to: m.recipient,
        replyTo,
        subject: parts.subject,
        text: parts.text,
        html: parts.html,
        headers: parts.headers,
      })
      return { ok: true, id: sent.messageId }
    },
  }
}

function twilioConfig(): TwilioConfig {
  return {
    base: env.TWILIO_API_BASE || TWILIO_DEFAULT_BASE,
    accountSid: env.TWILIO_ACCOUNT_SID!,
    authToken: env.TWILIO_AUTH_TOKEN!,
    from: env.TWILIO_FROM,
    messagingServiceSid: env.TWILIO_MESSAGING_SERVICE_SID,
  }
}

/** Twilio's Messages API over fetch (the number arrives in E.164). */
function twilioTransport(cfg: TwilioConfig): Transport {
  return {
    provider: 'twilio',
    async send(m) {
      const { url, init } = twilioRequest(cfg, m.recipient, m.body)
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) })
      return readTwilioAnswer(res.status, await res.json().catch(() => null))
    },
  }
}
