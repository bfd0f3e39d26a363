/**
 * /api/v1/qna on real workerd + D1 (spec §2 /qna and /qna/register, §3 WAIT/COMPLETED, §5 contact form,
 * §8 LIMIT_QNA_COUNT): filing a question, the daily limit, the receipt and answer mails through the outbox,
 * the list with answer status, refusals that write nothing, and the plain form.
 */
import { describe, expect, it } from 'vitest'
import { app, call, communitySnapshot, db, expectError, form, frEdition, newReader, read } from './comment.helpers.ts'
import { frMessages, request } from './app.ts'
import { answerQna } from '../../src/features/qna/qna.server.ts'
import { DAILY_QNA_LIMIT, MAX_BODY_LENGTH } from '../../src/features/qna/qna.ts'
import { createTranslator } from '../../src/lib/i18n/i18n.ts'
import { takeDraft } from '../../src/lib/forms/draft.server.ts'

void app
const t = createTranslator(frEdition, frMessages)
const ask = (reader: Parameters<typeof call>[0], body: unknown) => call(reader, 'POST', '/api/v1/qna', body)
const mails = (to: string) =>
  db.all<{ template: string; subject: string; body: string }>(
    `SELECT template, subject, body FROM outbox WHERE recipient = ? ORDER BY id`,
    to,
  )

describe('QnA', () => {
  it('files a question (WAIT), mails a receipt, and shows the answer (COMPLETED) with a second mail', async () => {
    const reader = await newReader()
    const res = await ask(reader, { category: 'PAYMENT', title: '  Paiement en double ', text: 'J’ai été débité deux fois.\r\nMerci.' })
    expect(res.status).toBe(201)
    const q = (await read(res)).data
    expect(q).toMatchObject({
      category: 'PAYMENT',
      title: 'Paiement en double',
      text: 'J’ai été débité deux fois.\nMerci.',
      status: 'WAIT',
      answer: null,
    })
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
    await db.run(
      `INSERT INTO qnas (user_id, title, body, created_at) VALUES (?, 'hier', 'hier', ?)`,
      reader.id,
      new Date(Date.now() - 2 * 86_400_000).toISOString(),
    )
    for (let i = 0; i < DAILY_QNA_LIMIT; i++)
      expect((await ask(reader, { category: 'ETC', title: `q${i}`, text: 'texte' })).status).toBe(201)
    const before = await communitySnapshot()
    await expectError(await ask(reader, { category: 'ETC', title: 'une de trop', text: 'texte' }), 429, 'LIMIT_QNA_COUNT')
    expect(await communitySnapshot()).toEqual(before)
  })

  it('refuses guests, unknown categories, empty or too long texts with nothing written', async () => {
    const reader = await newReader()
    const before = await communitySnapshot()
    await expectError(await ask(null, { category: 'ETC', title: 't', text: 'x' }), 401, 'NOT_LOGIN_USER')
    await expectError(await call(null, 'GET', '/api/v1/qna'), 401, 'NOT_LOGIN_USER')
    for (const body of [
      { category: 'SPAM', title: 't', text: 'x' },
      { category: 'ETC', title: ' ', text: 'x' },
      { category: 'ETC', title: 't', text: '\u0000 ' },
      { category: 'ETC', title: 't', text: 'x'.repeat(MAX_BODY_LENGTH + 1) },
      { category: 'ETC', title: 'x'.repeat(101), text: 'x' },
      {},
    ]) {
      await expectError(await ask(reader, body), 400, 'INVALID_PARAMETER')
    }
    await expectError(await call(reader, 'GET', '/api/v1/qna?cursor=abc'), 400, 'INVALID_PARAMETER')
    expect(await communitySnapshot()).toEqual(before)
  })

  it('the /qna/register form files the question and goes to /qna; refusals come back to the form', async () => {
    const reader = await newReader()
    const res = await form(reader, '/api/v1/qna/web/register', {
      category: 'ACCOUNT',
      title: 'Connexion',
      text: 'Je ne peux pas me connecter.',
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toMatch(/^\/qna\?sent=\d+#q\d+$/)
    const before = await communitySnapshot()
    const bad = await form(reader, '/api/v1/qna/web/register', { category: 'ACCOUNT', title: 'Connexion', text: '' })
    expect(bad.headers.get('location')).toBe('/qna/register?error=INVALID_PARAMETER')
    const guest = await form(null, '/api/v1/qna/web/register', { category: 'ACCOUNT', title: 'x', text: 'y' })
    expect(guest.headers.get('location')).toMatch(/^\/user\/login\?/)
    await expectError(
      await form(reader, '/api/v1/qna/web/register', { category: 'ACCOUNT', title: 'x', text: 'y' }, 'https://evil.example'),
      403,
      'FORBIDDEN_ORIGIN',
    )
    expect(await communitySnapshot()).toEqual(before)
  })

  it('a refused /qna/register form keeps everything typed out of the URL: subject and category in the flash, the long text server-side, read once (issue 25 §3)', async () => {
    const reader = await newReader()
    const text = 'سؤال طويل جدًا. '.repeat(130) // 2,080 characters, over the limit, far over a cookie's room once encoded
    const bad = await form(reader, '/api/v1/qna/web/register', { category: 'PAYMENT', title: 'Paiement', text })
    expect(bad.headers.get('location')).toBe('/qna/register?error=INVALID_PARAMETER')
    const cookie = bad.headers.getSetCookie().find((c) => c.startsWith('form-flash='))!
    expect(cookie).toMatch(/Path=\/qna\/register;.*HttpOnly/)
    expect(cookie.length).toBeLessThan(400)
    const flash = JSON.parse(decodeURIComponent(cookie.split(';')[0]!.slice('form-flash='.length))) as Record<string, unknown>
    expect(flash).toMatchObject({ code: 'INVALID_PARAMETER', field: 'text', values: { category: 'PAYMENT', title: 'Paiement' } })
    expect(await takeDraft(flash.draft as string)).toEqual({ text })
    expect(await takeDraft(flash.draft as string)).toEqual({})
    // no category chosen (the form's placeholder): the category is the field concerned, the text kept all the same
    const noCategory = await form(reader, '/api/v1/qna/web/register', { category: '', title: 'Paiement', text: 'Bonjour' })
    const third = JSON.parse(
      decodeURIComponent(
        noCategory.headers
          .getSetCookie()
          .find((c) => c.startsWith('form-flash='))!
          .split(';')[0]!
          .slice('form-flash='.length),
      ),
    ) as Record<string, unknown>
    expect(third).toMatchObject({ field: 'category', values: { category: '', title: 'Paiement' } })
    expect(await takeDraft(third.draft as string)).toEqual({ text: 'Bonjour' })
    // a refusal after the check of the form (here a file that is not an image) keeps the text too, and names the images field
    const notImage = new FormData()
    for (const [k, v] of Object.entries({ category: 'ETC', title: 'Image', text: 'Voici la capture.' })) notImage.set(k, v)
    notImage.set('images', new File([new TextEncoder().encode('not an image')], 'capture.png', { type: 'image/png' }))
    const refused = await request(app, '/api/v1/qna/web/register', {
      method: 'POST',
      redirect: 'manual',
      headers: { ...reader.headers, origin: 'http://localhost' },
      body: notImage,
    })
    const second = JSON.parse(
      decodeURIComponent(
        refused.headers
          .getSetCookie()
          .find((c) => c.startsWith('form-flash='))!
          .split(';')[0]!
          .slice('form-flash='.length),
      ),
    ) as Record<string, unknown>
    expect(second).toMatchObject({ field: 'images', values: { category: 'ETC', title: 'Image' } })
    expect(await takeDraft(second.draft as string)).toEqual({ text: 'Voici la capture.' })
  })
})

describe('QnA images (spec §5: up to 3, 3 MB each)', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
  const multipart = (
    reader: Parameters<typeof call>[0] & object,
    files: { bytes: Uint8Array<ArrayBuffer>; name: string; type: string }[],
  ) => {
    const body = new FormData()
    body.set('category', 'VIEWER')
    body.set('title', 'Capture')
    body.set('text', 'Voir la capture')
    for (const f of files) body.append('images', new File([f.bytes as Uint8Array<ArrayBuffer>], f.name, { type: f.type }))
    return request(app, '/api/v1/qna/web/register', {
      method: 'POST',
      redirect: 'manual',
      headers: { ...reader.headers, origin: 'http://localhost' },
      body,
    })
  }

  it('stores real images for the author only; too many, too big or not images are refused with nothing written', async () => {
    const reader = await newReader()
    const res = await multipart(reader, [{ bytes: png, name: 'a.png', type: 'image/png' }])
    expect(res.status).toBe(303)
    const id = Number(/sent=(\d+)/.exec(res.headers.get('location')!)![1])
    const list = (await read(await call(reader, 'GET', '/api/v1/qna'))).data
    expect(list.items[0]).toMatchObject({ id, images: 1 })
    const image = await call(reader, 'GET', `/api/v1/qna/${id}/image/1`)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(png)
    await expectError(await call(await newReader(), 'GET', `/api/v1/qna/${id}/image/1`), 404, 'NOT_EXIST')
    await expectError(await call(reader, 'GET', `/api/v1/qna/${id}/image/2`), 404, 'NOT_EXIST')

    const before = await communitySnapshot()
    const refused = [
      [1, 2, 3, 4].map((i) => ({ bytes: png, name: `${i}.png`, type: 'image/png' })),
      [{ bytes: new TextEncoder().encode('<svg onload=alert(1)>'), name: 'x.png', type: 'image/png' }],
      [{ bytes: new Uint8Array(3 * 1024 * 1024 + 1).fill(0xff), name: 'big.jpg', type: 'image/jpeg' }],
    ]
    for (const files of refused) {
      const r = await multipart(reader, files)
      expect(r.headers.get('location')).toMatch(/^\/qna\/register\?error=INVALID_PARAMETER/)
    }
    expect(await communitySnapshot()).toEqual(before)
  })
})
