/**
 * `npm run ops -- support search|edit-answer` (issue 39 point 6: support at volume) through the command line, against
 * the tiny HTTP server standing in for the operator API (fake-api.ts): the requests sent, what each prints, the refusals
 * of a bad command line with nothing sent, `--yes` for an address that is not local, help. The API itself runs on real
 * D1 in tests/worker/ops-support.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { expectRefusedUnsent, REFUSAL_TEST_TIMEOUT_MS, fakeApi, json, LOCAL_OPS_TOKEN, success, type FakeApi } from './fake-api.ts'

let api: FakeApi
beforeAll(async () => {
  api = await fakeApi()
})
afterAll(() => api.close())
beforeEach(() => api.reset())

const question = {
  id: 9,
  userId: 42,
  email: 'reader@example.com',
  category: 'PAYMENT',
  title: 'Paiement refusé',
  text: 'Ma carte est refusée.',
  status: 'COMPLETED',
  answer: 'Réessayez.',
  answeredAt: '2026-11-21T08:30:00.000Z',
  createdAt: '2026-11-20T10:00:00.000Z',
  images: 0,
  replies: [],
}

describe('npm run ops -- support search / edit-answer', () => {
  it(
    'refuses a bad command line with one clear line, before sending anything',
    async () => {
      const cases: [string[], RegExp][] = [
        [['support', 'search', '--text', ' '], /--text must be 1 to 100 characters/],
        [['support', 'search', '--email', 'nope'], /--email must be an e-mail address, not "nope"/],
        [['support', 'search', '--category', 'other'], /--category must be one of ACCOUNT, PAYMENT/],
        [['support', 'search', '--from', '2026-13-01'], /--from must be a date/],
        [['support', 'search', '--from', '2026-11-20', '--to', '2026-11-01'], /--to must be .*not before --from/],
        [['support', 'search', '--answered', '--waiting'], /give --answered or --waiting, not both/],
        [['support', 'search', '--limit', '0'], /--limit must be a whole number from 1 to 200/],
        [['support', 'edit-answer', '--text', 't', '--reason', 'r'], /give the question id: support edit-answer <id>/],
        [['support', 'edit-answer', 'x', '--text', 't', '--reason', 'r'], /--id must be a positive whole number/],
        [['support', 'edit-answer', '9', '--reason', 'r'], /--text is required/],
        [['support', 'edit-answer', '9', '--text', 'x'.repeat(2001), '--reason', 'r'], /--text must be 1 to 2000 characters/],
        [['support', 'edit-answer', '9', '--text', 't'], /--reason is required/],
        [['support', 'canned', 'set', '--text', 't', '--reason', 'r'], /give the canned reply's name: support canned set <name>/],
        [['support', 'canned', 'set', 'Bad_Name', '--text', 't', '--reason', 'r'], /name "Bad_Name" must be 2 to 40 of a-z/],
        [['support', 'canned', 'set', 'refund', '--reason', 'r'], /--text is required/],
        [['support', 'canned', 'set', 'refund', '--text', 't'], /--reason is required/],
        [['support', 'reply', '--canned', 'refund', '--reason', 'r'], /give the question id: support reply <id>/],
        [['support', 'reply', '9', '--reason', 'r'], /give the canned reply's name: --canned NAME/],
        [['support', 'reply', '9', '--canned', 'refund'], /--reason is required/],
      ]
      await expectRefusedUnsent(api, cases)
    },
    REFUSAL_TEST_TIMEOUT_MS,
  )

  it('support search: the query sent, one line per question with its id, the next page', async () => {
    api.reply = () => success({ items: [question], next: '9', timeZone: 'Europe/Paris' })
    const res = await api.ops([
      'support',
      'search',
      '--text',
      'carte',
      '--email',
      'reader@example.com',
      '--category',
      'payment',
      '--from',
      '2026-11-01',
      '--to',
      '2026-11-30',
      '--answered',
      '--limit',
      '1',
    ])
    expect(res.code, res.stderr).toBe(0)
    expect(api.seen.map((s) => [s.method, s.path, s.authorization])).toEqual([
      [
        'GET',
        '/api/ops/qna/search?limit=1&q=carte&email=reader%40example.com&from=2026-11-01&to=2026-11-30&category=PAYMENT&status=COMPLETED',
        `Bearer ${LOCAL_OPS_TOKEN}`,
      ],
    ])
    expect(res.stdout).toContain('1 question (http://127.0.0.1:')
    expect(res.stdout).toContain('text carte, email reader@example.com')
    expect(res.stdout).toContain('status COMPLETED, newest first; times in Europe/Paris:')
    expect(res.stdout).toMatch(/\n\s+9\s+2026-11-20 11:00\s+COMPLETED\s+PAYMENT\s+2026-11-21 09:30\s+Paiement refusé\s+reader@example.com/)
    expect(res.stdout).toContain(
      'more: npm run ops -- support search --text carte --email "reader@example.com" --category payment --from 2026-11-01 --to 2026-11-30 --answered --limit 1 --cursor 9',
    )
  })

  it('support edit-answer: the plan, the request, the outcome (and nothing changed for the same text)', async () => {
    api.reply = () => success({ ...question, answer: 'Nouvelle réponse', changed: true })
    const res = await api.ops(['support', 'edit-answer', '9', '--text', ' Nouvelle réponse ', '--reason', 'faute'])
    expect(res.code, res.stderr).toBe(0)
    expect(res.stdout).toContain('replace the answer of question 9: the reader reads the new one on /qna (no second mail)')
    expect(res.stdout).toContain('answer: "Nouvelle réponse"')
    expect(res.stdout).toContain('edited: the answer of question 9 (reader@example.com)')
    expect(api.seen.map((s) => [s.method, s.path, s.body])).toEqual([
      ['POST', '/api/ops/qna/9/answer/edit', { answer: 'Nouvelle réponse', reason: 'faute' }],
    ])
    api.reply = () => success({ ...question, changed: false })
    expect((await api.ops(['support', 'edit-answer', '9', '--text', 'Réessayez.', '--reason', 'r'])).stdout).toContain(
      'question 9 has that answer already: nothing changed',
    )
    api.reply = () => json(404, { result: 'ERROR', code: 'NOT_EXIST', message: 'Introuvable.', requestId: 'r' })
    const waiting = await api.ops(['support', 'edit-answer', '10', '--text', 't', '--reason', 'r'])
    expect(waiting.code).toBe(1)
    expect(waiting.stderr).toContain('no answered question 10: unknown or still waiting (support answer)')
  })

  it('support canned list, set and reply: the requests, the plan with the reply text, an unknown reply refused unsent', async () => {
    const canned = {
      name: 'refund',
      lang: 'fr-FR',
      text: 'Remboursé sous 5 jours.',
      updatedBy: 'root',
      updatedAt: '2026-12-01T09:00:00.000Z',
    }
    api.reply = (path) =>
      path === '/api/ops/qna/canned'
        ? success({ lang: 'fr-FR', items: [canned] })
        : path.startsWith('/api/ops/qna/canned/')
          ? success(canned)
          : success({ ...question, answer: canned.text })
    const list = await api.ops(['support', 'canned', 'list'])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toContain('1 canned reply in fr-FR')
    expect(list.stdout).toContain('refund  (2026-12-01 09:00 UTC, root)\n  Remboursé sous 5 jours.')
    const set = await api.ops(['support', 'canned', 'set', 'refund', '--text', 'Remboursé sous 5 jours.', '--reason', 'type'])
    expect(set.code, set.stderr).toBe(0)
    expect(set.stdout).toContain("set the canned reply refund in the edition's language")
    expect(set.stdout).toContain('set: canned reply refund in fr-FR (23 characters)')
    const reply = await api.ops(['support', 'reply', '9', '--canned', 'refund', '--reason', 'ticket 12'])
    expect(reply.code, reply.stderr).toBe(0)
    expect(reply.stdout).toContain(
      'answer question 9 with the canned reply refund (fr-FR): COMPLETED on /qna, the answer mail and an alarm',
    )
    expect(reply.stdout).toContain('answer: "Remboursé sous 5 jours."')
    expect(reply.stdout).toContain('answered: question 9 (reader@example.com) with refund')
    expect(api.seen.map((x) => [x.method, x.path, x.body])).toEqual([
      ['GET', '/api/ops/qna/canned', null],
      ['POST', '/api/ops/qna/canned/refund', { text: 'Remboursé sous 5 jours.', reason: 'type' }],
      ['GET', '/api/ops/qna/canned', null],
      ['POST', '/api/ops/qna/9/reply', { canned: 'refund', reason: 'ticket 12' }],
    ])
    api.seen = []
    const unknown = await api.ops(['support', 'reply', '9', '--canned', 'missing', '--reason', 'r'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr.trim()).toBe('ops: no canned reply missing in fr-FR (support canned list names them): nothing sent')
    expect(api.seen.map((x) => x.method)).toEqual(['GET'])
  })

  it('sends no change to an address that is not local without --yes; lists the commands in --help', async () => {
    const r = await api.ops(['support', 'edit-answer', '9', '--text', 't', '--reason', 'r'], {
      OPS_URL: 'http://ops.invalid',
      OPS_TOKEN: 't',
    })
    expect(r.code).toBe(2)
    expect(r.stdout).toContain('plan (http://ops.invalid):')
    expect(r.stderr.split('\n')[0]).toBe('ops: http://ops.invalid is not a local run: nothing sent; add --yes to do it')
    expect(api.seen).toEqual([])
    const names = ['support search', 'support edit-answer', 'support canned list', 'support canned set', 'support reply']
    const [all, ...each] = await Promise.all([api.ops(['--help']), ...names.map((n) => api.ops(['help', ...n.split(' ')]))])
    for (const [i, name] of names.entries()) {
      expect(all.stdout).toMatch(new RegExp(`\\n  ${name}\\s+\\S`))
      expect(each[i]!.stdout).toContain(`usage: npm run ops -- ${name}`)
      expect(each[i]!.stdout).toContain('OPS_URL')
    }
  })
})
