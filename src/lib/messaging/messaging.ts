/**
 * Pure rules of outgoing mail and SMS (issue 22): which templates exist and which may fail quietly, the mail
 * an edition sends (plain text + simple HTML in the edition's language and colour), what an edition lacks to
 * deliver, and the shape of Twilio's Messages API. The sending itself is in `messaging.server.ts`.
 */
import type { Edition } from '../edition/schema.ts'
import { cleanText } from '../text/clean.ts'

/**
 * Templates the code sends: signup-otp, reset-password, reset-not-local, password-changed, withdrawal,
 * transfer-code, qna-received, qna-answered, ops-alert, data-export (mail); sms-find_id, sms-find_password, sms-phone (SMS). A
 * notice tells about something already done (the password changed, a question received or answered, an alert to
 * the operator): if it cannot be delivered the action still stands, the failure is only logged. Every other
 * template carries a code or a link the reader waits for: a failure gives the retry message.
 */
const NOTICE_TEMPLATES: readonly string[] = ['password-changed', 'qna-received', 'qna-answered', 'ops-alert', 'data-export']

export const isNotice = (template: string) => NOTICE_TEMPLATES.includes(template)

/** How long one call to a provider may take before the reader gets the retry message. */
export const PROVIDER_TIMEOUT_MS = 5_000
/** Twilio's API origin; the `TWILIO_API_BASE` binding overrides it (tests point it at a local server). */
export const TWILIO_DEFAULT_BASE = 'https://api.twilio.com'
/** Largest inbound reply taken in (raw MIME bytes); a larger one is refused at the SMTP step. */
export const MAX_INBOUND_REPLY_BYTES = 256 * 1024

/** The bindings and secrets delivery depends on (a subset of the worker's env). */
export type DeliveryEnv = {
  EMAIL?: unknown
  TWILIO_ACCOUNT_SID?: string
  TWILIO_AUTH_TOKEN?: string
  TWILIO_FROM?: string
  TWILIO_MESSAGING_SERVICE_SID?: string
}

/** True when this edition can send mail: a sender in edition.json and the EMAIL binding. */
export const canSendMail = (edition: Pick<Edition, 'mail'>, env: DeliveryEnv) => edition.mail !== null && !!env.EMAIL
/** True when this edition can send SMS: a provider in edition.json and its credentials and sender. */
export const canSendSms = (edition: Pick<Edition, 'sms'>, env: DeliveryEnv) =>
  edition.sms === 'twilio' && !!env.TWILIO_ACCOUNT_SID && !!env.TWILIO_AUTH_TOKEN && !!(env.TWILIO_FROM || env.TWILIO_MESSAGING_SERVICE_SID)

/**
 * What a deployed edition lacks to deliver its messages (for a deploy check): each entry names the edition.json
 * field, binding or secret to add. Empty when mail and SMS both work.
 */
export function deliveryGaps(edition: Pick<Edition, 'mail' | 'sms'>, env: DeliveryEnv): string[] {
  const gaps: string[] = []
  if (edition.mail === null) gaps.push('edition.json mail (sender): e-mail sign-up and password reset are unavailable')
  else if (!env.EMAIL) gaps.push('send_email binding EMAIL (wrangler.jsonc) for ' + edition.mail.from)
  if (edition.sms === null) gaps.push('edition.json sms (provider): find ID / find password by phone are unavailable')
  else {
    if (!env.TWILIO_ACCOUNT_SID) gaps.push('secret TWILIO_ACCOUNT_SID')
    if (!env.TWILIO_AUTH_TOKEN) gaps.push('secret TWILIO_AUTH_TOKEN')
    if (!env.TWILIO_FROM && !env.TWILIO_MESSAGING_SERVICE_SID) gaps.push('secret TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID')
  }
  return gaps
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!)

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g

export type MailParts = { subject: string; text: string; html: string; headers: Record<string, string> }

/**
 * The mail of one message: the translated body as the plain-text part, and a simple HTML part (the edition's
 * name on its primary colour, the body's paragraphs, its links made clickable, the site's address at the
 * foot; no remote images, no scripts, every link absolute). Headers of a transactional mail: automatic
 * (RFC 3834, so out-of-office robots stay quiet), in the edition's language.
 */
export function renderMail(
  edition: Pick<Edition, 'siteName' | 'siteUrl' | 'locale' | 'direction' | 'theme'>,
  subject: string,
  body: string,
): MailParts {
  const site = edition.siteUrl.replace(/\/$/, '')
  const text = `${body}\n\n--\n${edition.siteName} · ${site}/\n`
  const paragraphs = body
    .split(/\n+/)
    .map((line) => {
      let html = ''
      let last = 0
      for (const m of line.matchAll(URL_PATTERN)) {
        html +=
          escapeHtml(line.slice(last, m.index)) +
          `<a href="${escapeHtml(m[0])}" style="color:${edition.theme.primary}">${escapeHtml(m[0])}</a>`
        last = m.index + m[0].length
      }
      return `<p style="margin:0 0 16px">${html}${escapeHtml(line.slice(last))}</p>`
    })
    .join('\n')
  const t = edition.theme
  const html = `<!doctype html>
<html lang="${escapeHtml(edition.locale)}" dir="${edition.direction}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:${t.background};color:${t.text};font-family:system-ui,sans-serif;font-size:16px;line-height:1.5">
<div style="max-width:${Math.min(t.maxWidth, 600)}px;margin:0 auto">
<div style="background:${t.primary};color:${t.onPrimary};padding:16px 24px;font-size:20px;font-weight:bold">${escapeHtml(edition.siteName)}</div>
<div style="padding:24px">
${paragraphs}
</div>
<div style="padding:0 24px 24px;font-size:13px"><a href="${escapeHtml(site)}/" style="color:${t.text}">${escapeHtml(edition.siteName)} · ${escapeHtml(site.replace(/^https?:\/\//, ''))}</a></div>
</div>
</body>
</html>
`
  return {
    subject,
    text,
    html,
    headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'OOF, AutoReply', 'Content-Language': edition.locale },
  }
}

// ─────────────────────────────── support replies ───────────────────────────────

/** The reply address of question `qnaId`: the support address with a signed sub-address (`support+q12-<sig>@…`). */
export function qnaReplyAddress(supportAddress: string, qnaId: number, signature: string): string {
  const at = supportAddress.lastIndexOf('@')
  return `${supportAddress.slice(0, at)}+q${qnaId}-${signature}${supportAddress.slice(at)}`
}

/** The question id and signature in a reply address, or null when it is not one. */
export function parseQnaReplyAddress(supportAddress: string, to: string): { qnaId: number; signature: string } | null {
  const at = supportAddress.lastIndexOf('@')
  const local = supportAddress.slice(0, at).toLowerCase()
  const domain = supportAddress.slice(at).toLowerCase()
  const m = /^(.+)\+q(\d{1,10})-([0-9a-f]{20})(@.+)$/.exec(to.trim().toLowerCase())
  if (!m || m[1] !== local || m[4] !== domain) return null
  return { qnaId: Number(m[2]), signature: m[3]! }
}

/**
 * The reader's own words of a reply mail: the quoted original (lines from "> " on, and the attribution line
 * just before them) and the signature block are cut, blank runs squeezed, at most `max` characters kept.
 */
export function replyText(text: string, max: number): string {
  // control characters (ANSI escapes), bidi overrides: cleaned as the web form's text is
  const lines = cleanText(text).split('\n')
  const kept: string[] = []
  for (const line of lines) {
    if (/^\s*>/.test(line) || line === '-- ') break
    kept.push(line)
  }
  // the attribution line ("Le … a écrit :", "On … wrote:") that precedes the quote
  while (kept.length && (kept.at(-1)!.trim() === '' || /:\s*$/.test(kept.at(-1)!))) kept.pop()
  return kept
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .slice(0, max)
}

// ─────────────────────────────── Twilio Messages API ───────────────────────────────

export type TwilioConfig = { base: string; accountSid: string; authToken: string; from?: string; messagingServiceSid?: string }

/** POST /2010-04-01/Accounts/{sid}/Messages.json, form-encoded, HTTP basic auth with the account's sid and token. */
export function twilioRequest(cfg: TwilioConfig, to: string, body: string): { url: string; init: RequestInit } {
  const form = new URLSearchParams({ To: to, Body: body })
  if (cfg.messagingServiceSid) form.set('MessagingServiceSid', cfg.messagingServiceSid)
  else form.set('From', cfg.from ?? '')
  return {
    url: `${cfg.base.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(cfg.accountSid)}/Messages.json`,
    init: {
      method: 'POST',
      headers: {
        authorization: `Basic ${btoa(`${cfg.accountSid}:${cfg.authToken}`)}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
    },
  }
}

export type ProviderOutcome =
  | { ok: true; id: string }
  /** `rejected`: the provider refused this recipient for good (invalid or unreachable number), not worth a retry. */
  | { ok: false; rejected: boolean; code: string }

/**
 * Twilio errors that refuse the number itself (invalid, not a mobile, opted out, region not allowed, cannot be
 * routed): the reader should correct it. Any other error (credentials, rate, server) is the service's.
 */
const TWILIO_NUMBER_ERRORS = [21211, 21408, 21610, 21612, 21614]

/** Twilio's answer: 201 with the message `sid`, or an error `{code, message, status}`. */
export function readTwilioAnswer(status: number, json: unknown): ProviderOutcome {
  const o = (json ?? {}) as { sid?: unknown; code?: unknown }
  if (status >= 200 && status < 300 && typeof o.sid === 'string') return { ok: true, id: o.sid }
  const code = typeof o.code === 'number' ? o.code : null
  return { ok: false, rejected: status === 400 && code !== null && TWILIO_NUMBER_ERRORS.includes(code), code: `twilio-${code ?? status}` }
}
