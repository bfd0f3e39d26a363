/**
 * Mail and SMS providers (issue 3 §6, ARCHITECTURE.md "Auth and sessions"): the account flows send through
 * this small interface only. The local default writes every message into the D1 outbox shown by the dev-only
 * /dev/outbox page, so each flow can be finished end to end offline. A real provider (an HTTP mail or SMS
 * API) implements the same `send` and is chosen in `messageProvider`.
 */
import type { Db } from '../../lib/server/db.ts'

export type OutgoingMessage = {
  channel: 'MAIL' | 'SMS'
  /** E-mail address or phone number. */
  recipient: string
  /** Which flow sent it (e.g. `reset-password`, `sms-code`); tests and operators filter on it. */
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
export function outboxProvider(db: Db): MessageProvider {
  return {
    async send(m, now = new Date()) {
      await db.run(
        `INSERT INTO outbox (channel, recipient, template, subject, body, meta, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        m.channel, m.recipient, m.template, m.subject ?? null, m.body, m.meta ? JSON.stringify(m.meta) : null, now.toISOString(),
      )
    },
  }
}

/** The provider of this deployment: today always the outbox (no external mail/SMS service is configured). */
export function messageProvider(db: Db): MessageProvider {
  return outboxProvider(db)
}
