/**
 * /api/v1/qna on real workerd + D1 (spec §2 /qna and /qna/register, §3 WAIT/COMPLETED, §5 contact form,
 * §8 LIMIT_QNA_COUNT): filing a question, the daily limit, the receipt and answer mails through the outbox,
 * the list with answer status, refusals that write nothing, and the plain form.
 */
import { describe, expect, it } from 'vitest'
import { app, call, communitySnapshot, db, expectError, form, frEdition, newReader, read } from './comment.helpers.ts'
import { answerQna } from '../../src/features/qna/qna.server.ts'
import { DAILY_QNA_LIMIT, MAX_BODY_LENGTH } from '../../src/features/qna/qna.ts'
import { createTranslator } from '../../src/lib/i18n/i18n.ts'

void app
const t = createTranslator(frEdition.locale, {})
const ask = (reader: Parameters<typeof call>[0], body: unknown) => call(reader, 'POST', '/api/v1/qna', body)
const mails = (to: string) => db.all<{ template: string; subject: string; body: string }>(`SELECT template, subject, body FROM outbox WHERE recipient = ? ORDER BY id`, to)

describe('QnA', () => {
  it('files a question (WAIT), mails a receipt, and shows the answer (COMPLETED) with a second mail', async () => {
    const reader = await newReader()
    const res = await ask(reader, { category: 'PAYMENT', title: '  Paiement en double ', text: 'J’ai été débité deux fois.\r\nMerci.' })
    expect(res.status).toBe(201)
    const q = (await read(res)).data
    expect(q).toMatchObject({ category: 'PAYMENT', title: 'Paiement en double', text: 'J’ai été débité deux fois.\nMerci.', status: 'WAIT', answer: null })
    expect((await mails(reader.email)).map((m) => m.template)).toEqual(['qna-received'])
    expect((await mails(reader.email))[0]!.subject).toBe('Nous avons bien reçu votre question')
    await answerQna(db, q.id, 'Nous vous avons remboursé.', { t, siteUrl: frEdition.siteUrl })
    await expect(answerQna(db, q.id, 'encore', { t, siteUrl: frEdition.siteUrl })).rejects.toMatchObject({ code: 'NOT_EXIST' })
    const list = (await read(await call(reader, 'GET', '/api/v1/qna'))).data
    expect(list.items).toHaveLength(1)
    expect(list.items[0]).toMatchObject({ id: q.id, status: 'COMPLETED', answer: 'Nous vous avons remboursé.' })
    expect((await mails(reader.email)).map((m) => m.template)).toEqual(['qna-received', 'qna-answered'])
    // another reader sees none of it
    expect((await read(await call(await newReader(), 'GET', '/api/v1/qna'))).data.items).toEqual([])
  })

  it('allows 5 questions a day (LIMIT_QNA_COUNT for the 6th, nothing written) and counts yesterday apart', async () => {
    const reader = await newReader()
    await db.run(`INSERT INTO qnas (user_id, title, body, created_at) VALUES (?, 'hier', 'hier', ?)`, reader.id, new Date(Date.now() - 2 * 86_400_000).toISOString())
    for (let i = 0; i < DAILY_QNA_LIMIT; i++) expect((await ask(reader, { category: 'ETC', title: `q${i}`, text: 'texte' })).status).toBe(201)
    const before = await communitySnapshot()
    await expectError(await ask(reader, { category: 'ETC', title: 'une de trop', text: 'texte' }), 429, 'LIMIT_QNA_COUNT')
    expect(await communitySnapshot()).toEqual(before)
  })

  it('refuses guests, unknown categories, empty or too long texts with nothing written', async () => {
    const reader = await newReader()
    const before = await communitySnapshot()
    await expectError(await ask(null, { category: 'ETC', title: 't', text: 'x' }), 401, 'NOT_LOGIN_USER')
    await expectError(await call(null, 'GET', '/api/v1/qna'), 401, 'NOT_LOGIN_USER')
    for (const body of [{ category: 'SPAM', title: 't', text: 'x' }, { category: 'ETC', title: ' ', text: 'x' }, { category: 'ETC', title: 't', text: '\u0000 ' },
      { category: 'ETC', title: 't', text: 'x'.repeat(MAX_BODY_LENGTH + 1) }, { category: 'ETC', title: 'x'.repeat(101), text: 'x' }, {}]) {
      await expectError(await ask(reader, body), 400, 'INVALID_PARAMETER')
    }
    await expectError(await call(reader, 'GET', '/api/v1/qna?cursor=abc'), 400, 'INVALID_PARAMETER')
    expect(await communitySnapshot()).toEqual(before)
  })

  it('the /qna/register form files the question and goes to /qna; refusals come back to the form', async () => {
    const reader = await newReader()
    const res = await form(reader, '/api/v1/qna/web/register', { category: 'ACCOUNT', title: 'Connexion', text: 'Je ne peux pas me connecter.' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toMatch(/^\/qna\?sent=\d+#q\d+$/)
    const before = await communitySnapshot()
    const bad = await form(reader, '/api/v1/qna/web/register', { category: 'ACCOUNT', title: 'Connexion', text: '' })
    expect(bad.headers.get('location')).toBe('/qna/register?error=INVALID_PARAMETER&category=ACCOUNT&title=Connexion#qna-form')
    const guest = await form(null, '/api/v1/qna/web/register', { category: 'ACCOUNT', title: 'x', text: 'y' })
    expect(guest.headers.get('location')).toMatch(/^\/user\/login\?/)
    await expectError(await form(reader, '/api/v1/qna/web/register', { category: 'ACCOUNT', title: 'x', text: 'y' }, 'https://evil.example'), 403, 'FORBIDDEN_ORIGIN')
    expect(await communitySnapshot()).toEqual(before)
  })
})
