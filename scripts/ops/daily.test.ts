/**
 * `npm run ops -- support|notice|coupon …` (issue 16 point 2: the operator's daily commands) through the command line,
 * against a tiny HTTP server standing in for the operator API: the request each sends (method, path, bearer token,
 * JSON body), the refusals of a bad command line with nothing sent, `--yes` for an address that is not local, and
 * what each prints. The API itself runs on real D1 in tests/worker/ops-daily.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { expectRefusedUnsent, REFUSAL_TEST_TIMEOUT_MS, fakeApi, json, LOCAL_OPS_TOKEN, outward, success, type FakeApi } from './fake-api.ts'

let api: FakeApi
beforeAll(async () => {
  api = await fakeApi()
})
afterAll(() => api.close())
beforeEach(() => api.reset())

const question = {
  id: 12,
  userId: 7,
  email: 'reader@example.com',
  category: 'PAYMENT',
  title: 'Paiement double',
  text: 'Débité deux fois.',
  status: 'WAIT',
  answer: null,
  answeredAt: null,
  createdAt: '2026-11-20T09:30:00.000Z',
  images: 1,
  replies: [],
  report: null,
  device: null,
}
/** A reader's report of a problem with an episode (issue 37 point 4), as GET /api/ops/qna gives it. */
const report = {
  ...question,
  id: 14,
  category: 'CONTENT',
  title: 'Signalement : Lune · Épisode 3',
  text: 'Image manquante ou abîmée',
  images: 0,
  report: { episodeId: 31, no: 3, episodeTitle: '', seriesId: 4, seriesTitle: 'Lune\u202e', problem: 'IMAGE' },
  device: 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0',
}
const notice = {
  id: 5,
  category: 'NOTICE',
  seriesId: null,
  title: 'Maintenance',
  body: 'Ce soir.',
  isPinned: false,
  publishedAt: '2026-11-27T10:00:00.000Z',
  state: 'PUBLISHED',
}
const coupon = {
  id: 9,
  code: 'BIENVENUE',
  title: 'Bienvenue',
  type: 'EXTRA_EARN',
  minimumAmount: 0,
  startsAt: null,
  expiresAt: '2027-01-31T23:59:59.999Z',
  platform: null,
  rewardType: 'COIN',
  rewardAmount: 5,
  rewardLotType: 'BONUS',
  rewardExpiresDays: null,
  stock: 100,
  usedCount: 3,
  received: 3,
  used: 3,
  downloadable: false,
  state: 'LIVE',
  createdAt: '2026-11-27T10:00:00.000Z',
}

/** `coupon create` of code A up to its type: each refusal case adds the rest. */
const CODE_A = ['coupon', 'create', '--code', 'A', '--title', 'T', '--type', 'DISCOUNT']

describe('npm run ops -- support / notice / coupon', () => {
  it(
    'refuses a bad command line with one clear line, before sending anything',
    async () => {
      const cases: [string[], RegExp][] = [
        [['support', 'show'], /--id is required/],
        [['support', 'show', '--id', 'x'], /--id must be a positive whole number/],
        [['support', 'answer', '--id', '3', '--text', 'Oui'], /--reason is required/],
        [['support', 'answer', '--id', '3', '--reason', 'r'], /--text is required/],
        [
          ['support', 'answer', '--id', '3', '--text', 'x'.repeat(2001), '--reason', 'r'],
          /--text must be 1 to 2000 characters once trimmed \(it has 2001\)/,
        ],
        [['notice', 'publish', '--title', 'T', '--reason', 'r'], /--body is required/],
        [['notice', 'publish', '--title', 'T', '--body', 'B'], /--reason is required/],
        [
          ['notice', 'publish', '--title', 'T', '--body', 'B', '--reason', 'r', '--category', 'SPAM'],
          /--category must be one of NOTICE, EVENT/,
        ],
        [['notice', 'publish', '--title', 'T', '--body', 'B', '--reason', 'r', '--at', '2026-02-30'], /--at must be a date/],
        [
          ['notice', 'publish', '--title', 'T', '--body', 'B', '--reason', 'r', '--series', '0'],
          /--series must be a positive whole number/,
        ],
        [['notice', 'publish', '--title', 'x'.repeat(201), '--body', 'B', '--reason', 'r'], /--title must be 1 to 200 characters/],
        [['notice', 'edit', '--id', '5', '--reason', 'r'], /give at least one of --title, --body, --at/],
        [['notice', 'pin', '--id', '5'], /--reason is required/],
        [['notice', 'unpublish', '--id=-1', '--reason', 'r'], /--id must be a positive whole number/],
        [
          ['coupon', 'create', '--title', 'T', '--type', 'DISCOUNT', '--reward', 'COIN', '--amount', '5', '--reason', 'r'],
          /give --code C or --downloadable/,
        ],
        [
          [
            'coupon',
            'create',
            '--code',
            'A',
            '--downloadable',
            '--title',
            'T',
            '--type',
            'DISCOUNT',
            '--reward',
            'COIN',
            '--amount',
            '5',
            '--reason',
            'r',
          ],
          /--code and --downloadable exclude each other/,
        ],
        [
          ['coupon', 'create', '--code', 'A B', '--title', 'T', '--type', 'DISCOUNT', '--reward', 'COIN', '--amount', '5', '--reason', 'r'],
          /--code must be letters/,
        ],
        [
          ['coupon', 'create', '--code', 'A', '--title', 'T', '--type', 'FREE', '--reward', 'COIN', '--amount', '5', '--reason', 'r'],
          /--type must be one of DISCOUNT, EXTRA_EARN/,
        ],
        [[...CODE_A, '--reward', 'COIN', '--amount', 'five', '--reason', 'r'], /--amount must be a whole number/],
        [[...CODE_A, '--reward', 'ROULETTE_TICKET', '--amount', '101', '--reason', 'r'], /--amount must be 1 to 100 tickets/],
        [
          [...CODE_A, '--reward', 'MILEAGE', '--lot', 'BONUS', '--amount', '5', '--reason', 'r'],
          /--lot must be FREE_COIN, BONUS or COIN, and only with --reward COIN/,
        ],
        [
          [...CODE_A, '--reward', 'COIN', '--amount', '5', '--minimum', '100', '--reason', 'r'],
          /--minimum must be .* only with --downloadable/,
        ],
        [
          [...CODE_A, '--reward', 'COIN', '--amount', '5', '--starts', '2027-02-01', '--expires', '2027-01-01', '--reason', 'r'],
          /--expires must be .* after --starts/,
        ],
        [[...CODE_A, '--reward', 'COIN', '--amount', '5', '--platform', 'PC', '--reason', 'r'], /--platform must be one of WEB/],
        [
          ['coupon', 'create', '--code', 'A', '--type', 'DISCOUNT', '--reward', 'COIN', '--amount', '5', '--reason', 'r'],
          /--title is required/,
        ],
        [['coupon', 'expire', '--id', '9'], /--reason is required/],
        [['coupon', 'report', '--id', 'all'], /--id must be a positive whole number/],
        [['coupon', 'report', 'extra'], /unexpected argument "extra"/],
      ]
      await expectRefusedUnsent(api, cases)
    },
    REFUSAL_TEST_TIMEOUT_MS,
  )

  it('support list, show and answer: GET /api/ops/qna, GET /api/ops/qna/{id}, POST /api/ops/qna/{id}/answer', async () => {
    api.reply = (path) =>
      path === '/api/ops/qna'
        ? success({ items: [question, { ...question, id: 13, email: null, images: 0, title: 'Autre' }, report] })
        : path === '/api/ops/qna/14'
          ? success({ ...report, imageUrls: [] })
          : path === '/api/ops/qna/12'
            ? success({
                ...question,
                imageUrls: ['/api/ops/qna/12/image/1'],
                // an older row's reply by mail with a terminal escape and a bidi override (issue 34 point 6)
                replies: [{ text: 'Merci\u001b[2J\u202egnol', createdAt: '2026-11-21T10:00:00.000Z' }],
              })
            : success({ ...question, status: 'COMPLETED', answer: 'Remboursé.' })
    const list = await api.ops(['support', 'list'])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toContain('3 questions waiting')
    expect(list.stdout).toMatch(/12\s+2026-11-20 09:30 UTC\s+PAYMENT\s+1\s+Paiement double\s+reader@example.com/)
    expect(list.stdout).toContain('(user 7, no e-mail)')
    expect(list.stdout).toMatch(/14\s+2026-11-20 09:30 UTC\s+CONTENT\s+0\s+IMAGE ep\. 31\s+Signalement : Lune · Épisode 3/)

    const shownReport = await api.ops(['support', 'show', '--id', '14'])
    expect(shownReport.code, shownReport.stderr).toBe(0)
    expect(shownReport.stdout).toContain('report: IMAGE · episode 31, no. 3 of series 4 "Lune\\u{202e}" (/viewer/31)')
    expect(shownReport.stdout).toContain('device: Mozilla/5.0 (Linux; Android 14) Chrome/131.0')

    const show = await api.ops(['support', 'show', '--id', '12'])
    expect(show.code, show.stderr).toBe(0)
    expect(show.stdout).toContain('question 12 · WAIT · PAYMENT')
    expect(show.stdout).toContain('Débité deux fois.')
    expect(show.stdout).toContain('Merci\\u{1b}[2J\\u{202e}gnol')
    expect(show.stdout).not.toMatch(/[\u001b\u202e]/)
    expect(show.stdout).toContain(`http://127.0.0.1:${api.port}/api/ops/qna/12/image/1`)

    const answer = await api.ops(['support', 'answer', '--id', '12', '--text', ' Remboursé. ', '--reason', 'ticket 42'])
    expect(answer.code, answer.stderr).toBe(0)
    expect(answer.stdout).toContain('answer question 12: status COMPLETED')
    expect(answer.stdout).toContain('answered: question 12 (reader@example.com) is COMPLETED')
    expect(api.seen).toEqual([
      { method: 'GET', path: '/api/ops/qna', authorization: `Bearer ${LOCAL_OPS_TOKEN}`, contentType: '', body: null },
      { method: 'GET', path: '/api/ops/qna/14', authorization: `Bearer ${LOCAL_OPS_TOKEN}`, contentType: '', body: null },
      { method: 'GET', path: '/api/ops/qna/12', authorization: `Bearer ${LOCAL_OPS_TOKEN}`, contentType: '', body: null },
      {
        method: 'POST',
        path: '/api/ops/qna/12/answer',
        authorization: `Bearer ${LOCAL_OPS_TOKEN}`,
        contentType: 'application/json',
        body: { answer: 'Remboursé.', reason: 'ticket 42' },
      },
    ])
  })

  it('notice publish, edit, pin, unpublish: the requests and their reports', async () => {
    api.reply = (path) =>
      path.endsWith('/pin')
        ? success({ ...notice, isPinned: true })
        : path.endsWith('/unpublish')
          ? success({ ...notice, state: 'UNPUBLISHED', publishedAt: '9999-12-31T23:59:59.999Z' })
          : success(notice)
    const runs = await Promise.all([
      api.ops([
        'notice',
        'publish',
        '--title',
        'Maintenance',
        '--body',
        'Ce soir.',
        '--category',
        'maintenance',
        '--series',
        '3',
        '--pinned',
        '--at',
        '2026-12-01',
        '--reason',
        'planned',
      ]),
      api.ops(['notice', 'edit', '--id', '5', '--title', 'Maintenance ce soir', '--reason', 'typo']),
      api.ops(['notice', 'pin', '--id', '5', '--reason', 'important']),
      api.ops(['notice', 'pin', '--id', '5', '--off', '--reason', 'over']),
      api.ops(['notice', 'unpublish', '--id', '5', '--reason', 'done']),
    ])
    for (const r of runs) expect(r.code, r.stderr).toBe(0)
    expect(runs[0]!.stdout).toContain("publish a MAINTENANCE notice on series 3's page, pinned, dated 2026-12-01T00:00:00.000Z")
    expect(runs[0]!.stdout).toContain('published: notice 5 (NOTICE, global) published 2026-11-27T10:00:00.000Z: "Maintenance"')
    expect(runs[2]!.stdout).toContain('pinned: notice 5 (NOTICE, global, pinned)')
    expect(runs[4]!.stdout).toContain('unpublished: notice 5 (NOTICE, global) is unpublished')
    const byPath = Object.fromEntries(api.seen.map((s) => [`${s.path} ${JSON.stringify(s.body)}`, s]))
    expect(Object.keys(byPath).sort()).toEqual(
      [
        `/api/ops/notices ${JSON.stringify({ title: 'Maintenance', body: 'Ce soir.', category: 'MAINTENANCE', seriesId: 3, pinned: true, publishedAt: '2026-12-01T00:00:00.000Z', reason: 'planned' })}`,
        `/api/ops/notices/5 ${JSON.stringify({ title: 'Maintenance ce soir', reason: 'typo' })}`,
        `/api/ops/notices/5/pin ${JSON.stringify({ pinned: true, reason: 'important' })}`,
        `/api/ops/notices/5/pin ${JSON.stringify({ pinned: false, reason: 'over' })}`,
        `/api/ops/notices/5/unpublish ${JSON.stringify({ reason: 'done' })}`,
      ].sort(),
    )
    expect(api.seen.every((s) => s.method === 'POST' && s.authorization === `Bearer ${LOCAL_OPS_TOKEN}`)).toBe(true)
  })

  it('coupon create, expire, report: the requests and their reports', async () => {
    api.reply = (path) =>
      path.startsWith('/api/ops/coupons?')
        ? {
            ...success({
              items: [coupon],
              readers: [
                { userId: 41, email: 'lea@example.com', receivedAt: '2026-11-26T08:00:00.000Z', redeemedAt: '2026-11-26T08:00:01.000Z' },
                { userId: 40, email: null, receivedAt: '2026-11-25T20:30:00.000Z', redeemedAt: null },
              ],
            }),
            headers: { 'x-edition-time-zone': 'Europe/Paris' },
          }
        : path === '/api/ops/coupons' && api.seen.at(-1)?.method === 'GET'
          ? success({ items: [coupon] })
          : path.endsWith('/expire')
            ? success({ ...coupon, state: 'EXPIRED', expiresAt: '2026-11-27T11:00:00.000Z' })
            : json(201, { result: 'SUCCESS', data: coupon })
    const create = await api.ops([
      'coupon',
      'create',
      '--code',
      'bienvenue',
      '--title',
      'Bienvenue',
      '--type',
      'extra_earn',
      '--reward',
      'coin',
      '--lot',
      'bonus',
      '--amount',
      '5',
      '--expires',
      '2027-01-31',
      '--quantity',
      '100',
      '--reason',
      'launch',
    ])
    expect(create.code, create.stderr).toBe(0)
    expect(create.stdout).toContain('create coupon code BIENVENUE: "Bienvenue", EXTRA_EARN')
    expect(create.stdout).toContain('reward: 5 BONUS')
    expect(create.stdout).toContain('usable: now → 2027-01-31T23:59:59.999Z, every platform, 100 readers')
    expect(create.stdout).toContain('created: coupon 9 code BIENVENUE, LIVE')
    expect(api.seen).toEqual([
      {
        method: 'POST',
        path: '/api/ops/coupons',
        authorization: `Bearer ${LOCAL_OPS_TOKEN}`,
        contentType: 'application/json',
        body: {
          code: 'BIENVENUE',
          title: 'Bienvenue',
          type: 'EXTRA_EARN',
          rewardType: 'COIN',
          rewardLotType: 'BONUS',
          rewardAmount: 5,
          minimumAmount: 0,
          downloadable: false,
          expiresAt: '2027-01-31T23:59:59.999Z',
          quantity: 100,
          reason: 'launch',
        },
      },
    ])
    api.seen = []
    const expire = await api.ops(['coupon', 'expire', '--id', '9', '--reason', 'abuse'])
    expect(expire.code, expire.stderr).toBe(0)
    expect(expire.stdout).toContain('expired: coupon 9 code BIENVENUE at 2026-11-27T11:00:00.000Z; 3 readers rewarded')
    const report = await api.ops(['coupon', 'report', '--id', '9'])
    expect(report.code, report.stderr).toBe(0)
    expect(report.stdout).toContain('1 coupon (http://127.0.0.1:')
    expect(report.stdout).toMatch(
      /9\s+BIENVENUE\s+Bienvenue\s+EXTRA_EARN\s+5 BONUS\s+0\s+3\/100\s+3\s+3\s+LIVE\s+all\s+2027-02-01 00:59 CET/,
    )
    // who used it (issue 39 point 9), latest first, in the edition's time zone
    expect(report.stdout).toContain('2 readers of coupon 9, latest first:')
    expect(report.stdout).toMatch(/41\s+lea@example\.com\s+2026-11-26 09:00 CET\s+2026-11-26 09:00 CET/)
    expect(report.stdout).toMatch(/40\s+\(withdrawn\)\s+2026-11-25 21:30 CET\s*\n/)
    expect(api.seen.map((s) => [s.method, s.path, s.body])).toEqual([
      ['POST', '/api/ops/coupons/9/expire', { reason: 'abuse' }],
      ['GET', '/api/ops/coupons?id=9', null],
    ])
  })

  it('prints the plan and sends no change to an address that is not local without --yes; reads need no --yes', async () => {
    const refused = await Promise.all([
      api.ops(['support', 'answer', '--id', '1', '--text', 'Oui', '--reason', 'r'], { OPS_URL: 'http://ops.invalid', OPS_TOKEN: 't' }),
      api.ops(['notice', 'unpublish', '--id', '1', '--reason', 'r'], { OPS_URL: 'http://ops.invalid', OPS_TOKEN: 't' }),
      api.ops(['coupon', 'expire', '--id', '1', '--reason', 'r'], { OPS_URL: 'http://ops.invalid', OPS_TOKEN: 't' }),
    ])
    for (const r of refused) {
      expect(r.code).toBe(2)
      expect(r.stdout).toContain('plan (http://ops.invalid):')
      expect(r.stderr.split('\n')[0]).toBe('ops: http://ops.invalid is not a local run: nothing sent; add --yes to do it')
    }
    const noToken = await api.ops(['coupon', 'report'], { OPS_URL: 'https://fr.example.com' })
    expect(noToken.code).toBe(2)
    expect(noToken.stderr).toMatch(/OPS_TOKEN is required for https:\/\/fr.example.com/)
    expect(api.seen).toEqual([])

    if (!outward) return // no address but loopback on this machine: the refusals above are the test
    const url = `http://${outward}:${api.port}`
    api.reply = () => success({ items: [] })
    const read = await api.ops(['support', 'list'], { OPS_URL: url, OPS_TOKEN: 'deployed' })
    expect(read.code, read.stderr).toBe(0)
    expect(api.seen).toMatchObject([{ method: 'GET', path: '/api/ops/qna', authorization: 'Bearer deployed' }])
    api.seen = []
    const plan = await api.ops(['notice', 'pin', '--id', '5', '--reason', 'r'], { OPS_URL: url, OPS_TOKEN: 'deployed' })
    expect(plan.code).toBe(2)
    expect(api.seen).toEqual([])
    api.reply = () => success(notice)
    const sent = await api.ops(['notice', 'pin', '--id', '5', '--reason', 'r', '--yes'], { OPS_URL: url, OPS_TOKEN: 'deployed' })
    expect(sent.code, sent.stderr).toBe(0)
    expect(api.seen).toMatchObject([{ path: '/api/ops/notices/5/pin', authorization: 'Bearer deployed' }])
  })

  it("prints the API's refusals as one line with their code, exit code 1", async () => {
    const error = (status: number, code: string, message: string) => json(status, { result: 'ERROR', code, message, requestId: 'r1' })
    api.reply = () => error(404, 'NOT_EXIST', 'Ce contenu n’existe pas.')
    const answered = await api.ops(['support', 'answer', '--id', '12', '--text', 'encore', '--reason', 'r'])
    expect(answered.code).toBe(1)
    expect(answered.stderr.trim()).toBe(
      'ops: NOT_EXIST (HTTP 404) from POST /api/ops/qna/12/answer: Ce contenu n’existe pas. (no question 12 waiting: unknown or answered already, or the operator API is off: no OPS_TOKEN on the server)',
    )
    const shown = await api.ops(['support', 'show', '--id', '99'])
    expect(shown.stderr.trim()).toMatch(/^ops: NOT_EXIST \(HTTP 404\) from GET \/api\/ops\/qna\/99: .*\(no question 99,/)
    api.reply = () => error(400, 'INVALID_PARAMETER', 'coupon code BIENVENUE exists already')
    const taken = await api.ops([
      'coupon',
      'create',
      '--code',
      'bienvenue',
      '--title',
      'T',
      '--type',
      'DISCOUNT',
      '--reward',
      'COIN',
      '--amount',
      '1',
      '--reason',
      'r',
    ])
    expect(taken.code).toBe(1)
    expect(taken.stderr.trim()).toBe('ops: INVALID_PARAMETER (HTTP 400) from POST /api/ops/coupons: coupon code BIENVENUE exists already')
    api.reply = () => error(410, 'EXPIRED_COUPON', 'Ce coupon a expiré.')
    const over = await api.ops(['coupon', 'expire', '--id', '9', '--reason', 'r'])
    expect(over.code).toBe(1)
    expect(over.stderr.trim()).toBe('ops: EXPIRED_COUPON (HTTP 410) from POST /api/ops/coupons/9/expire: Ce coupon a expiré.')
  })

  it('lists the commands in --help and explains each in help <command>', async () => {
    const names = [
      'support list',
      'support show',
      'support answer',
      'notice publish',
      'notice edit',
      'notice pin',
      'notice unpublish',
      'coupon create',
      'coupon expire',
      'coupon report',
    ]
    const [all, ...each] = await Promise.all([api.ops(['--help']), ...names.map((n) => api.ops([...n.split(' '), '--help']))])
    for (const [i, name] of names.entries()) {
      expect(all.stdout).toMatch(new RegExp(`\\n  ${name}\\s+\\S`))
      expect(each[i]!.code).toBe(0)
      expect(each[i]!.stdout).toContain(`usage: npm run ops -- ${name}`)
      expect(each[i]!.stdout).toContain('OPS_URL')
    }
  })
})
