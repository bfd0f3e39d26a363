import { describe, expect, it } from 'vitest'
import { loadEdition } from '../edition/load.ts'
import { EDITION_IDS } from '../edition/schema.ts'
import { deliveryGaps, parseQnaReplyAddress, qnaReplyAddress, readTwilioAnswer, renderMail, replyText, twilioRequest } from './messaging.ts'

const fr = loadEdition('fr').edition
const secrets = { EMAIL: {}, TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 'tok', TWILIO_FROM: '+15005550006' }

describe('what an edition lacks to deliver its messages', () => {
  it('nothing when the sender, the binding and the SMS secrets are there (a messaging service replaces the sender number)', () => {
    expect(deliveryGaps(fr, secrets)).toEqual([])
    expect(deliveryGaps(fr, { ...secrets, TWILIO_FROM: undefined, TWILIO_MESSAGING_SERVICE_SID: 'MG1' })).toEqual([])
  })

  it('names each missing binding and secret', () => {
    expect(deliveryGaps(fr, {})).toEqual([
      'send_email binding EMAIL (wrangler.jsonc) for no-reply@fr.bomtoon.example',
      'secret TWILIO_ACCOUNT_SID',
      'secret TWILIO_AUTH_TOKEN',
      'secret TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID',
    ])
  })

  it('says which reader flows are unavailable when edition.json configures no provider', () => {
    const gaps = deliveryGaps({ mail: null, sms: null }, secrets)
    expect(gaps).toHaveLength(2)
    expect(gaps[0]).toMatch(/^edition\.json mail .*sign-up and password reset are unavailable/)
    expect(gaps[1]).toMatch(/^edition\.json sms .*by phone are unavailable/)
  })

  it('every edition that serves pages names a sender on its own domain', () => {
    for (const id of EDITION_IDS) {
      const { edition } = loadEdition(id)
      if (edition.redirectAllUrl) continue
      expect(edition.mail?.from.endsWith(`@${new URL(edition.siteUrl).host}`), id).toBe(true)
    }
  })
})

describe('the mail of a message', () => {
  it('escapes the text in the HTML part, links only absolute URLs, and loads nothing remote', () => {
    const mail = renderMail(
      fr,
      'Sujet <b>',
      `Bonjour <script>alert(1)</script> & "vous"\nLien : ${fr.siteUrl}/user/resetPassword?userId=1&uuid=abc`,
    )
    expect(mail.html).not.toContain('<script>')
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;vous&quot;')
    expect(mail.html).toContain(`<a href="${fr.siteUrl}/user/resetPassword?userId=1&amp;uuid=abc"`)
    expect(mail.html).toContain('<title>Sujet &lt;b&gt;</title>')
    expect(mail.html).not.toMatch(/<img|src=|url\(/i)
    expect(mail.text.startsWith('Bonjour <script>')).toBe(true)
    expect(mail.text).toContain(`${fr.siteName} · ${fr.siteUrl}/`)
  })
})

describe('support reply addresses', () => {
  it('round-trip, case-insensitively (mail servers may lower-case), for the edition support address only', () => {
    const address = qnaReplyAddress('support@fr.bomtoon.example', 42, '0123456789abcdef0123')
    expect(address).toBe('support+q42-0123456789abcdef0123@fr.bomtoon.example')
    expect(parseQnaReplyAddress('support@fr.bomtoon.example', address.toUpperCase())).toEqual({
      qnaId: 42,
      signature: '0123456789abcdef0123',
    })
    expect(parseQnaReplyAddress('support@fr.bomtoon.example', 'support+q42-0123456789abcdef0123@evil.example')).toBeNull()
    expect(parseQnaReplyAddress('support@fr.bomtoon.example', 'other+q42-0123456789abcdef0123@fr.bomtoon.example')).toBeNull()
    expect(parseQnaReplyAddress('support@fr.bomtoon.example', 'support@fr.bomtoon.example')).toBeNull()
  })

  it("keep the reader's words: the quote, its attribution and the signature cut, the length bounded", () => {
    expect(replyText('Merci !\r\n\r\nOn Tue, Support wrote:\r\n> old\r\n> older', 100)).toBe('Merci !')
    expect(replyText('Texte\n-- \nSignature', 100)).toBe('Texte')
    // issue 34 (6): no terminal escape, control or bidi override reaches the operator's terminal
    expect(replyText('\u001b[2J\u001b[31mRouge\u001b[0m \u202eesrever\u0007\u009b', 100)).toBe('[2J[31mRouge[0m esrever')
    expect(replyText('a'.repeat(50), 10)).toBe('a'.repeat(10))
    expect(replyText('> only a quote', 100)).toBe('')
  })
})

describe("Twilio's Messages API", () => {
  it('posts the form with basic auth, From or MessagingServiceSid', () => {
    const { url, init } = twilioRequest(
      { base: 'http://127.0.0.1:1/', accountSid: 'AC1', authToken: 'tok', from: '+1500' },
      '+33612345678',
      'Code 123456',
    )
    expect(url).toBe('http://127.0.0.1:1/2010-04-01/Accounts/AC1/Messages.json')
    expect((init.headers as Record<string, string>).authorization).toBe(`Basic ${btoa('AC1:tok')}`)
    expect(Object.fromEntries(new URLSearchParams(String(init.body)))).toEqual({ To: '+33612345678', Body: 'Code 123456', From: '+1500' })
    const viaService = twilioRequest({ base: 'x', accountSid: 'AC1', authToken: 't', from: '+1500', messagingServiceSid: 'MG1' }, '+1', 'b')
    expect(new URLSearchParams(String(viaService.init.body)).get('From')).toBeNull()
    expect(new URLSearchParams(String(viaService.init.body)).get('MessagingServiceSid')).toBe('MG1')
  })

  it('reads the documented answers: a sid, a refused number, a service error', () => {
    expect(readTwilioAnswer(201, { sid: 'SM1', status: 'queued' })).toEqual({ ok: true, id: 'SM1' })
    expect(readTwilioAnswer(400, { code: 21211, message: 'invalid', status: 400 })).toEqual({
      ok: false,
      rejected: true,
      code: 'twilio-21211',
    })
    expect(readTwilioAnswer(401, { code: 20003, status: 401 })).toEqual({ ok: false, rejected: false, code: 'twilio-20003' })
    expect(readTwilioAnswer(429, { code: 20429 })).toEqual({ ok: false, rejected: false, code: 'twilio-20429' })
    expect(readTwilioAnswer(502, null)).toEqual({ ok: false, rejected: false, code: 'twilio-502' })
  })
})
