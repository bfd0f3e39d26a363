/**
 * A reader's reply by mail to a support answer (issue 22 §5), received by the worker's `email()` handler
 * (Email Routing, on editions whose edition.json `mail.inboundReplies` is on). The answer mail's Reply-To is
 * the support address with a signed sub-address naming the question (`support+q12-<sig>@…`). A reply is
 * taken only at such an address with a valid signature, from the address that asked, within the size limit;
 * it is parsed with postal-mime, only its text is kept (images and every other attachment are dropped, the
 * quoted original cut), it lands on the question and the question waits for support again. Anything else is
 * refused at the SMTP step with a short reason.
 */
import PostalMime from 'postal-mime'
import type { Edition } from '../../lib/edition/schema.ts'
import type { Db } from '../../lib/server/db.ts'
import type { QnasRow } from '../../lib/server/db-types.ts'
import { qnaReplySignature } from '../../lib/messaging/messaging.server.ts'
import { MAX_INBOUND_REPLY_BYTES, parseQnaReplyAddress, replyText } from '../../lib/messaging/messaging.ts'
import { constantTimeEqual } from '../../lib/secrets.ts'
import { normaliseEmail } from '../../lib/email.ts'
import { MAX_BODY_LENGTH } from './qna.ts'

/** The part of Email Routing's ForwardableEmailMessage used here. */
export type InboundMail = Pick<ForwardableEmailMessage, 'from' | 'to' | 'raw' | 'rawSize' | 'setReject'>

export type InboundOutcome = { ok: true; qnaId: number } | { ok: false; reason: string }

export async function receiveQnaReply(
  db: Db,
  edition: Pick<Edition, 'mail'>,
  message: InboundMail,
  now = new Date(),
): Promise<InboundOutcome> {
  const refuse = (reason: string): InboundOutcome => {
    message.setReject(reason)
    return { ok: false, reason }
  }
  if (!edition.mail?.inboundReplies) return refuse('replies are not accepted here')
  const target = parseQnaReplyAddress(edition.mail.replyTo, message.to)
  if (!target || !constantTimeEqual(target.signature, await qnaReplySignature(target.qnaId))) return refuse('unknown address')
  if (message.rawSize > MAX_INBOUND_REPLY_BYTES) return refuse('message too large')
  const question = await db.first<Pick<QnasRow, 'email'>>(`SELECT email FROM qnas WHERE id = ?`, target.qnaId)
  const sender = normaliseEmail(message.from)
  if (!question?.email || normaliseEmail(question.email) !== sender) return refuse('unknown address')
  let parsed: Awaited<ReturnType<typeof PostalMime.parse>>
  try {
    parsed = await PostalMime.parse(message.raw, {
      attachmentEncoding: 'arraybuffer',
      maxNestingDepth: 20,
      maxHeadersSize: 64 * 1024,
      maxRfc822NestingDepth: 0,
    })
  } catch {
    return refuse('message could not be read')
  }
  // the From header must be the envelope sender too (a forged header alone does not pass)
  if (parsed.from?.address && normaliseEmail(parsed.from.address) !== sender) return refuse('unknown address')
  const text = replyText(parsed.text ?? htmlToText(parsed.html ?? ''), MAX_BODY_LENGTH)
  if (!text) return refuse('empty message')
  await db.batch([
    { sql: `INSERT INTO qna_replies (qna_id, body, created_at) VALUES (?, ?, ?)`, params: [target.qnaId, text, now.toISOString()] },
    { sql: `UPDATE qnas SET status = 'WAIT' WHERE id = ?`, params: [target.qnaId] },
  ])
  return { ok: true, qnaId: target.qnaId }
}

/** A reply sent as HTML only: its text (tags, scripts, styles and images dropped). */
function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<blockquote[\s\S]*$/i, '')
    .replace(/<br\s*\/?>|<\/p>|<\/div>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
}
