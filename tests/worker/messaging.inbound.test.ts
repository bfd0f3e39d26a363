/**
 * Support answers by mail both ways (issue 22 §5) on real workerd + D1: the answer mail's Reply-To is the
 * question's signed address; a raw MIME reply to it, handed to the worker's email handler (`receiveQnaReply`,
 * what `email()` in functions/worker.ts runs), lands on the question as text (quote cut, image dropped) and
 * the question waits for support again. Other senders, forged addresses, oversized mails and editions that
 * take no replies are refused at the SMTP step and change nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { frEdition, frMessages, inRequest } from './app.ts'
import { makeUser } from './account.helpers.ts'
import { deployed } from './messaging.helpers.ts'
import { createDb } from '../../src/lib/server/db.ts'
import { createTranslator } from '../../src/lib/i18n/i18n.ts'
import { answerQna, myQnas } from '../../src/features/qna/qna.server.ts'
import { receiveQnaReply, type InboundMail } from '../../src/features/qna/qna-mail.server.ts'
import { MAX_INBOUND_REPLY_BYTES } from '../../src/lib/messaging/messaging.ts'

const db = createDb(env.DB)
const t = createTranslator(frEdition, frMessages)
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

/** A reply as a mail client writes it: multipart, the reader's words above the quoted answer, a screenshot attached. */
function rawReply(from: string, to: string, words: string): string {
  return [
    `From: Reader <${from}>`,
    `To: ${to}`,
    'Subject: Re: Le support a répondu à votre question',
    'Message-ID: <reply-1@example.com>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    words,
    '',
    'Le 25 nov. 2026 à 10:00, Bomtoon <no-reply@fr.bomtoon.example> a écrit :',
    '> Nous avons répondu à votre question « Double paiement » :',
    '> Nous vous avons remboursé.',
    '',
    '--b1',
    'Content-Type: image/png; name="capture.png"',
    'Content-Disposition: attachment; filename="capture.png"',
    'Content-Transfer-Encoding: base64',
    '',
    PNG,
    '--b1--',
    '',
  ].join('\r\n')
}

function inbound(from: string, to: string, raw: string, rawSize = new TextEncoder().encode(raw).length) {
  const message = {
    from,
    to,
    rawSize,
    rejected: null as string | null,
    raw: new Response(raw).body!,
    setReject(reason: string) {
      message.rejected = reason
    },
  }
  return message as InboundMail & { rejected: string | null }
}

let reader: { id: number; email: string }
let qnaId: number
let replyTo: string
const replies = () => db.all<{ body: string }>(`SELECT body FROM qna_replies WHERE qna_id = ? ORDER BY id`, qnaId)
const status = async () => (await db.first<{ status: string }>(`SELECT status FROM qnas WHERE id = ?`, qnaId))!.status

beforeAll(async () => {
  reader = await makeUser()
  qnaId = (await db.first<{ id: number }>(
    `INSERT INTO qnas (user_id, title, body, email) VALUES (?, 'Double paiement', 'Débité deux fois.', ?) RETURNING id`,
    reader.id,
    reader.email,
  ))!.id
  const sent = await deployed(async (sent) => {
    await inRequest({ requestId: `answer-${qnaId}`, edition: frEdition }, () =>
      answerQna(db, qnaId, 'Nous vous avons remboursé.', { t, siteUrl: frEdition.siteUrl }),
    )
    return sent
  })
  replyTo = String(sent[0]!.replyTo)
})

describe('a reply by mail to a support answer', () => {
  it('lands on the question as text only (quote cut, image dropped) and the question waits for support again', async () => {
    expect(await status()).toBe('COMPLETED')
    const mail = inbound(
      reader.email,
      replyTo,
      rawReply(reader.email, replyTo, 'Merci, mais j’ai encore été débité hier.\nLa capture est jointe.'),
    )
    expect(await receiveQnaReply(db, frEdition, mail)).toEqual({ ok: true, qnaId })
    expect(mail.rejected).toBeNull()
    expect(await replies()).toEqual([{ body: 'Merci, mais j’ai encore été débité hier.\nLa capture est jointe.' }])
    expect(await status()).toBe('WAIT')
    // the reader sees it under the answer on /qna
    const [mine] = (await myQnas(db, reader.id, null)).items
    expect(mine).toMatchObject({
      id: qnaId,
      status: 'WAIT',
      replies: [{ text: 'Merci, mais j’ai encore été débité hier.\nLa capture est jointe.' }],
    })
  })

  it('an HTML-only reply keeps its words, never its images', async () => {
    const raw = [
      `From: ${reader.email}`,
      `To: ${replyTo}`,
      'Subject: Re',
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<div>Toujours pas <b>remboursé</b>.<img src="https://tracker.example/p.gif"></div><blockquote>Nous avons répondu</blockquote>',
      '',
    ].join('\r\n')
    expect((await receiveQnaReply(db, frEdition, inbound(reader.email, replyTo, raw))).ok).toBe(true)
    expect((await replies()).at(-1)).toEqual({ body: 'Toujours pas remboursé.' })
  })

  it('is refused from another address, at a forged address, when too large, or where the edition takes no replies', async () => {
    const before = (await replies()).length
    const stranger = 'someone-else@example.com'
    const forged = replyTo.replace(/-[0-9a-f]{20}@/, '-0123456789abcdef0123@')
    const cases: [InboundMail & { rejected: string | null }, typeof frEdition][] = [
      [inbound(stranger, replyTo, rawReply(stranger, replyTo, 'Je ne suis pas l’auteur.')), frEdition],
      // a forged From header with the asker's address does not pass either
      [inbound(stranger, replyTo, rawReply(reader.email, replyTo, 'En-tête falsifié.')), frEdition],
      [inbound(reader.email, forged, rawReply(reader.email, forged, 'Adresse inventée.')), frEdition],
      [inbound(reader.email, replyTo, rawReply(reader.email, replyTo, 'Trop gros.'), MAX_INBOUND_REPLY_BYTES + 1), frEdition],
      [
        inbound(reader.email, replyTo, rawReply(reader.email, replyTo, 'Pas ici.')),
        { ...frEdition, mail: { ...frEdition.mail!, inboundReplies: false } },
      ],
    ]
    for (const [mail, edition] of cases) {
      expect((await receiveQnaReply(db, edition, mail)).ok).toBe(false)
      expect(mail.rejected).toBeTruthy()
    }
    expect(await replies()).toHaveLength(before)
  })
})
