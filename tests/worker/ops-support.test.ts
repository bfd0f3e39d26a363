/**
 * Support at volume through the operator API (issue 39 point 6; docs/API.md "Operator API": `GET /api/ops/qna/search`,
 * `POST /api/ops/qna/{id}/answer/edit`; `npm run ops -- support search|edit-answer`) on the real edge app and D1: off
 * without OPS_TOKEN, 401 without the right token; questions answered or not found by text, reader, category, status and
 * date, newest first, a page at a time; an answer edited (the reader reads the new text, no second mail), one audit row
 * with the answer before and after; 40 concurrent edits to one text: one change, one row; 1,000 generated bad bodies
 * answer no 5xx and change nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { env, withEnv } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { OPS, expectBadBodiesRefused } from './ops.helpers.ts'
import { call, db, expectError, newReader, read, type Reader } from './comment.helpers.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

const ops = (method: string, path: string, body?: unknown) => call(OPS, method, `/api/ops${path}`, body)
const search = async (query: string) => (await read(await ops('GET', `/qna/search?${query}`))).data
const ids = async (query: string) => (await search(query)).items.map((q: { id: number }) => q.id)

let seq = 0
/** A question of `reader` filed at `createdAt`. */
async function ask(reader: Reader, fields: { category?: string; title?: string; body?: string; createdAt?: string } = {}) {
  const row = await db.first<{ id: number }>(
    `INSERT INTO qnas (user_id, category, title, body, email, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    reader.id,
    fields.category ?? 'ETC',
    fields.title ?? `Question ${++seq}`,
    fields.body ?? 'Bonjour, une question.',
    reader.email,
    fields.createdAt ?? new Date().toISOString(),
  )
  return row!.id
}

const snapshot = () =>
  db.first(`SELECT (SELECT group_concat(id || ':' || status || ':' || coalesce(answer, '-'), '|') FROM qnas) AS qnas,
    (SELECT count(*) FROM ops_audit) AS audit, (SELECT count(*) FROM outbox) AS mails,
    (SELECT group_concat(name || lang || body) FROM support_replies) AS canned`)

describe('operator API: support search and answer edits', () => {
  it('both routes are 404 NOT_EXIST without OPS_TOKEN and 401 NOT_LOGIN_USER without the right token, changing nothing', async () => {
    const before = await snapshot()
    for (const [method, path] of [
      ['GET', '/api/ops/qna/search?q=x'],
      ['POST', '/api/ops/qna/1/answer/edit'],
    ] as const) {
      const body = method === 'POST' ? { answer: 'x', reason: 'x' } : undefined
      for (const OPS_TOKEN of ['', undefined])
        await expectError((await withEnv({ ...env, OPS_TOKEN }, () => call(OPS, method, path, body))) as Response, 404, 'NOT_EXIST')
      await expectError(await call(null, method, path, body), 401, 'NOT_LOGIN_USER')
      await expectError(await call({ headers: { authorization: 'Bearer wrong' } }, method, path, body), 401, 'NOT_LOGIN_USER')
    }
    expect(await snapshot()).toEqual(before)
  })

  it('search: by text (title, question, answer; any case), e-mail, category, status, dates; newest first, by pages', async () => {
    const a = await newReader()
    const b = await newReader()
    const tag = `zq${Date.now().toString(36)}`
    const q1 = await ask(a, { category: 'PAYMENT', title: `Paiement ${tag} refusé`, createdAt: '2026-11-01T10:00:00.000Z' })
    const q2 = await ask(a, {
      category: 'VIEWER',
      body: `Le zoom ne marche pas (${tag.toUpperCase()})`,
      createdAt: '2026-11-10T10:00:00.000Z',
    })
    const q3 = await ask(b, { category: 'PAYMENT', createdAt: '2026-11-20T10:00:00.000Z' })
    expect((await ops('POST', `/qna/${q3}/answer`, { answer: `Remboursé, voir ${tag}.`, reason: 'r' })).status).toBe(200)

    expect(await ids(`q=${tag}`)).toEqual([q3, q2, q1]) // newest first; the answer's text counts too
    const page = await search(`q=${tag}`)
    expect(page.items[0]).toMatchObject({ id: q3, status: 'COMPLETED', userId: b.id, email: b.email, category: 'PAYMENT' })
    expect(page.timeZone).toBe('Europe/Paris')
    expect(await ids(`email=${encodeURIComponent(a.email.toUpperCase())}`)).toEqual([q2, q1])
    expect(await ids(`q=${tag}&category=PAYMENT`)).toEqual([q3, q1])
    expect(await ids(`q=${tag}&status=WAIT`)).toEqual([q2, q1])
    expect(await ids(`q=${tag}&status=COMPLETED`)).toEqual([q3])
    expect(await ids(`q=${tag}&from=2026-11-10&to=2026-11-19`)).toEqual([q2])
    expect(await ids(`q=${tag}&to=2026-11-01`)).toEqual([q1]) // a date: through its end
    const first = await search(`q=${tag}&limit=2`)
    expect(first.items.map((q: { id: number }) => q.id)).toEqual([q3, q2])
    expect(await ids(`q=${tag}&limit=2&cursor=${first.next}`)).toEqual([q1])
    expect((await search(`q=${tag}&limit=2&cursor=${first.next}`)).next).toBeNull()
    for (const bad of [
      'q=',
      `q=${'x'.repeat(101)}`,
      'email=nope',
      'category=OTHER',
      'status=DONE',
      'from=2026-13-01',
      'from=2026-11-20&to=2026-11-01',
      'limit=0',
      'cursor=x',
    ])
      await expectError(await ops('GET', `/qna/search?${bad}`), 400, 'INVALID_PARAMETER')
  })

  it('edit-answer: the reader reads the new answer, no second mail, one audit row with before and after', async () => {
    const reader = await newReader()
    const id = await ask(reader)
    const before = await snapshot()
    await expectError(await ops('POST', `/qna/${id}/answer/edit`, { answer: 'Trop tôt', reason: 'r' }), 404, 'NOT_EXIST') // still waiting
    await expectError(await ops('POST', '/qna/999999999/answer/edit', { answer: 'x', reason: 'r' }), 404, 'NOT_EXIST')
    expect(await snapshot()).toEqual(before)
    expect((await ops('POST', `/qna/${id}/answer`, { answer: 'Première réponse', reason: 'r' })).status).toBe(200)
    const mails = (await db.first<{ n: number }>(`SELECT count(*) AS n FROM outbox`))!.n

    const edited = (await read(await ops('POST', `/qna/${id}/answer/edit`, { answer: ' Réponse corrigée ', reason: 'faute de frappe' })))
      .data
    expect(edited).toMatchObject({ id, status: 'COMPLETED', answer: 'Réponse corrigée', changed: true })
    const mine = (await read(await call(reader, 'GET', '/api/v1/qna'))).data
    expect(mine.items.find((q: { id: number }) => q.id === id)).toMatchObject({ answer: 'Réponse corrigée' })
    expect((await db.first<{ n: number }>(`SELECT count(*) AS n FROM outbox`))!.n).toBe(mails)
    // the same text again: nothing changes, no audit row
    expect((await read(await ops('POST', `/qna/${id}/answer/edit`, { answer: 'Réponse corrigée', reason: 'r' }))).data.changed).toBe(false)
    const rows = await db.all<{ action: string; reason: string; before_json: string; after_json: string }>(
      `SELECT action, reason, before_json, after_json FROM ops_audit WHERE target = ? ORDER BY id`,
      `qna:${id}`,
    )
    expect(rows.map((r) => [r.action, r.reason])).toEqual([
      ['qna.answer', 'r'],
      ['qna.answer.edit', 'faute de frappe'],
    ])
    expect(JSON.parse(rows[1]!.before_json)).toMatchObject({ answer: 'Première réponse' })
    expect(JSON.parse(rows[1]!.after_json)).toMatchObject({ answer: 'Réponse corrigée' })
  })

  it('40 concurrent edits to one text: one change, one audit row', async () => {
    const id = await ask(await newReader())
    await ops('POST', `/qna/${id}/answer`, { answer: 'Avant', reason: 'r' })
    const answers = await Promise.all(
      Array.from({ length: 40 }, async () => ops('POST', `/qna/${id}/answer/edit`, { answer: 'Après', reason: 'course' })),
    )
    const changed = await Promise.all(answers.map(async (r) => (expect(r.status).toBe(200), (await read(r)).data.changed as boolean)))
    expect(changed.filter(Boolean)).toHaveLength(1)
    expect(await db.all(`SELECT action FROM ops_audit WHERE target = ? ORDER BY id`, `qna:${id}`)).toEqual([
      { action: 'qna.answer' },
      { action: 'qna.answer.edit' },
    ])
  })

  it('1,000 generated bad bodies on answer edit: no 5xx, only catalogue codes, nothing changed', { timeout: 300_000 }, async () => {
    const id = await ask(await newReader())
    await ops('POST', `/qna/${id}/answer`, { answer: 'Réponse', reason: 'r' })
    const before = await snapshot()
    await expectBadBodiesRefused([`/api/ops/qna/${id}/answer/edit`], {
      answer: fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 2001, maxLength: 4100 }), fc.anything()),
    })
    expect(await snapshot()).toEqual(before)
  })
})

describe('operator API: canned replies', () => {
  it('set (created, then replaced: one audit row each), listed in the edition language, a reply answers with its text', async () => {
    const name = `paiement-${Date.now().toString(36)}`
    const set = await ops('POST', `/qna/canned/${name}`, { text: ' Votre banque a refusé le paiement. ', reason: 'nouvelle réponse type' })
    expect(set.status).toBe(200)
    expect((await read(set)).data).toMatchObject({ name, lang: 'fr-FR', text: 'Votre banque a refusé le paiement.', updatedBy: 'root' })
    await ops('POST', `/qna/canned/${name}`, { text: 'Votre banque a refusé le paiement : réessayez.', reason: 'précision' })
    const list = (await read(await ops('GET', '/qna/canned'))).data
    expect(list.lang).toBe('fr-FR')
    expect(list.items.find((r: { name: string }) => r.name === name)).toMatchObject({
      text: 'Votre banque a refusé le paiement : réessayez.',
    })
    const rows = await db.all<{ action: string; before_json: string | null; after_json: string }>(
      `SELECT action, before_json, after_json FROM ops_audit WHERE target = ? ORDER BY id`,
      `canned:${name}.fr-FR`,
    )
    expect(rows.map((r) => r.action)).toEqual(['qna.canned.set', 'qna.canned.set'])
    expect(rows[0]!.before_json).toBeNull()
    expect(JSON.parse(rows[1]!.before_json!)).toMatchObject({ body: 'Votre banque a refusé le paiement.' })

    const reader = await newReader()
    const id = await ask(reader, { category: 'PAYMENT' })
    const before = await snapshot()
    await expectError(await ops('POST', `/qna/${id}/reply`, { canned: 'unknown-reply', reason: 'r' }), 404, 'NOT_EXIST')
    for (const bad of [{ canned: 'X', reason: 'r' }, { canned: name }, { canned: '1abc', reason: 'r' }])
      await expectError(await ops('POST', `/qna/${id}/reply`, bad), 400, 'INVALID_PARAMETER')
    for (const bad of [{ text: '', reason: 'r' }, { text: 'x'.repeat(2001), reason: 'r' }, { text: 't' }])
      await expectError(await ops('POST', `/qna/canned/${name}`, bad), 400, 'INVALID_PARAMETER')
    await expectError(await ops('POST', '/qna/canned/Bad_Name', { text: 't', reason: 'r' }), 400, 'INVALID_PARAMETER')
    expect(await snapshot()).toEqual(before)

    // 40 concurrent replies to one question: it is answered once, one mail, one audit row
    const mails = (await db.first<{ n: number }>(`SELECT count(*) AS n FROM outbox`))!.n
    const answers = await Promise.all(
      Array.from({ length: 40 }, async () => ops('POST', `/qna/${id}/reply`, { canned: name, reason: 'réponse type' })),
    )
    expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array(39).fill(404)])
    const answered = (await read(answers.find((r) => r.status === 200)!)).data
    expect(answered).toMatchObject({ id, status: 'COMPLETED', answer: 'Votre banque a refusé le paiement : réessayez.' })
    expect((await db.first<{ n: number }>(`SELECT count(*) AS n FROM outbox`))!.n).toBe(mails + 1)
    expect(await db.all(`SELECT action, detail FROM ops_audit WHERE target = ? ORDER BY id`, `qna:${id}`)).toEqual([
      { action: 'qna.answer', detail: JSON.stringify({ qnaId: id, canned: name }) },
    ])
  })

  it(
    '1,000 generated bad bodies on canned set and reply: no 5xx, only catalogue codes, nothing changed',
    { timeout: 300_000 },
    async () => {
      const id = await ask(await newReader())
      await ops('POST', '/qna/canned/fuzz-reply', { text: 'Réponse', reason: 'r' })
      const before = await snapshot()
      const str = fc.oneof(fc.string({ maxLength: 40 }), fc.anything())
      await expectBadBodiesRefused([`/api/ops/qna/canned/fuzz-reply`, `/api/ops/qna/${id}/reply`], {
        text: fc.oneof(str, fc.string({ minLength: 2001, maxLength: 4100 })),
        canned: fc.oneof(fc.constant('fuzz-reply'), str),
      })
      expect(await snapshot()).toEqual(before)
    },
  )
})
