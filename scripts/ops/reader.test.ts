/**
 * `npm run ops -- reader show|sessions end` (issue 16 point 2: readers) through the command line, against the tiny HTTP
 * server standing in for the operator API (fake-api.ts): the requests sent, what each prints, the refusals of a bad
 * command line with nothing sent, `--yes` for an address that is not local, help. The API itself runs on real D1 in
 * tests/worker/ops-reader.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { expectRefusedUnsent, REFUSAL_TEST_TIMEOUT_MS, fakeApi, json, LOCAL_OPS_TOKEN, success, type FakeApi } from './fake-api.ts'

let api: FakeApi
beforeAll(async () => {
  api = await fakeApi()
})
afterAll(() => api.close())
beforeEach(() => api.reset())

const report = {
  account: {
    id: 42,
    email: 'reader@example.com',
    nickname: 'Lune',
    platform: 'WEB',
    createdAt: '2026-01-05T08:00:00.000Z',
    isAdult: true,
    adultVerifiedAt: '2026-02-01T10:00:00.000Z',
    emailVerifiedAt: '2026-01-05T08:01:00.000Z',
    lastLoginAt: '2026-11-26T21:14:00.000Z',
    withdrawalRequestedAt: null,
    deletedAt: null,
    signIn: ['password', 'google'],
  },
  balances: { BONUS: 5, FREE_COIN: 0, COIN: 40, MILEAGE: 120, total: 45, nextExpiries: [] },
  wallet: { lots: 165, ledger: 165, minRemaining: 0 },
  payments: [
    {
      id: 'pay_abc',
      state: 'REFUNDED',
      provider: 'stripe',
      method: 'card',
      amount: 499,
      currency: 'EUR',
      coins: 50,
      bonus: 5,
      createdAt: '2026-11-01T10:00:00.000Z',
      paidAt: '2026-11-01T10:00:05.000Z',
      cancelledAt: null,
      refundedAt: '2026-11-02T08:00:00.000Z',
      events: [{ type: 'charge.refunded', receivedAt: '2026-11-02T08:00:00.000Z' }],
    },
  ],
  purchases: [
    {
      id: 7,
      type: 'RENT',
      coins: 2,
      createdAt: '2026-11-03T12:00:00.000Z',
      seriesId: 3,
      seriesTitle: 'Lune rouge',
      episodeId: 31,
      episodeNo: 4,
    },
  ],
  signIns: [
    { at: '2026-11-26T21:14:00.000Z', client: 'APP', ipAddress: '203.0.113.9', open: true },
    { at: '2026-10-01T07:00:00.000Z', client: 'WEB', ipAddress: null, open: false },
  ],
  spending: { limit: 50, next: { limit: null, at: '2026-11-28T09:00:00.000Z' }, spent: 48, resetsAt: '2026-11-30T23:00:00.000Z' },
}

describe('npm run ops -- reader', () => {
  it(
    'refuses a bad command line with one clear line, before sending anything',
    async () => {
      const cases: [string[], RegExp][] = [
        [['reader', 'show'], /give --email E, --id N, --nickname NAME, --payment pay_… or --phone NUMBER \(exactly one\)/],
        [['reader', 'show', '--email', 'a@example.com', '--id', '3'], /\(exactly one\)/],
        [['reader', 'show', '--nickname', 'Lune', '--phone', '0612345678'], /\(exactly one\)/],
        [['reader', 'show', '--payment', 'ch_1'], /--payment must be a payment id/],
        [['reader', 'show', '--phone', 'call me'], /--phone must be a phone number/],
        [['reader', 'show', '--nickname', ' '], /--nickname is required/],
        [['reader', 'show', '--id', '0'], /--id must be a positive whole number/],
        [['reader', 'show', '--email', 'not-an-address'], /--email must be an e-mail address, not "not-an-address"/],
        [['reader', 'show', '--id', '3', 'extra'], /unexpected argument "extra"/],
        [['reader', 'sessions', 'end', '--id', '3'], /--reason is required/],
        [['reader', 'sessions', 'end', '--reason', 'r'], /give --email E or --id N/],
        [['reader', 'sessions', 'end', '--id', '3', '--reason', 'r'.repeat(201)], /--reason must be 1 to 200 characters/],
        [['reader', 'sessions', 'end', '--email', 'x', '--reason', 'r'], /--email must be an e-mail address/],
        [['reader', 'sessions', 'end', '--id', '3', '--reason', 'r', '--all'], /Unknown option '--all'/],
      ]
      await expectRefusedUnsent(api, cases)
    },
    REFUSAL_TEST_TIMEOUT_MS,
  )

  it("prints times in the edition's time zone, as its API's X-Edition-Time-Zone says, with the zone's name (issue 39 point 9)", async () => {
    api.reply = () => ({ ...success(report), headers: { 'x-edition-time-zone': 'Asia/Seoul' } })
    const r = await api.ops(['reader', 'show', '--id', '42'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('created 2026-01-05 17:00 GMT+9 · platform WEB')
    expect(r.stdout).toContain('last sign-in 2026-11-27 06:14 GMT+9')
    api.reply = () => ({ ...success(report), headers: { 'x-edition-time-zone': 'Europe/Paris' } })
    expect((await api.ops(['reader', 'show', '--id', '42'])).stdout).toContain('created 2026-01-05 09:00 CET · platform WEB')
  })

  it('reader show: GET /api/ops/readers by e-mail, id, nickname, payment id or phone; the account, balances, payments, purchases, sign-ins', async () => {
    api.reply = () => success(report)
    const answers = await Promise.all([
      api.ops(['reader', 'show', '--email', ' reader@example.com ']),
      api.ops(['reader', 'show', '--id', '42']),
      api.ops(['reader', 'show', '--nickname', 'Lune']),
      api.ops(['reader', 'show', '--payment', 'pay_abc']),
      api.ops(['reader', 'show', '--phone', '06 12 34 56 78']),
    ])
    for (const r of answers) {
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toContain('reader 42: reader@example.com "Lune"')
      expect(r.stdout).toContain('created 2026-01-05 08:00 UTC · platform WEB · sign-in password, google · e-mail verified')
      expect(r.stdout).toContain('adult: verified 2026-02-01 10:00 UTC · last sign-in 2026-11-26 21:14 UTC')
      expect(r.stdout).toContain('balances: BONUS 5, FREE_COIN 0, COIN 40 (spendable 45); MILEAGE 120')
      expect(r.stdout).toContain('invariant: Σ lots remaining 165 = Σ ledger 165 ✓')
      expect(r.stdout).toContain(
        'spending limit: 50 coins a month · 48 spent this month · resets 2026-11-30 23:00 UTC · raise to none asked, from 2026-11-28 09:00 UTC',
      )
      expect(r.stdout).toMatch(
        /pay_abc\s+2026-11-01 10:00 UTC\s+REFUNDED\s+€4.99\s+50\s+5\s+stripe\/card\s+2026-11-02 08:00 UTC\s+charge.refunded 2026-11-02 08:00 UTC/,
      )
      expect(r.stdout).toMatch(/7\s+2026-11-03 12:00 UTC\s+RENT\s+2\s+3 Lune rouge\s+no 4 \(id 31\)/)
      expect(r.stdout).toMatch(/2026-11-26 21:14 UTC\s+APP\s+203.0.113.9\s+open/)
      expect(r.stdout).toMatch(/2026-10-01 07:00 UTC\s+WEB\s+ended/)
    }
    expect(api.seen.map((s) => [s.method, s.path, s.authorization]).sort()).toEqual(
      [
        ['GET', '/api/ops/readers?email=reader%40example.com', `Bearer ${LOCAL_OPS_TOKEN}`],
        ['GET', '/api/ops/readers?id=42', `Bearer ${LOCAL_OPS_TOKEN}`],
        ['GET', '/api/ops/readers?nickname=Lune', `Bearer ${LOCAL_OPS_TOKEN}`],
        ['GET', '/api/ops/readers?payment=pay_abc', `Bearer ${LOCAL_OPS_TOKEN}`],
        ['GET', '/api/ops/readers?phone=06+12+34+56+78', `Bearer ${LOCAL_OPS_TOKEN}`],
      ].sort(),
    )
  })

  it('reader sessions end: by id straight away, by e-mail after looking the reader up; the plan names the reader', async () => {
    api.reply = (path) =>
      path.startsWith('/api/ops/readers?') ? success(report) : success({ id: 42, email: 'reader@example.com', ended: 1 })
    const byId = await api.ops(['reader', 'sessions', 'end', '--id', '42', '--reason', 'ticket 7'])
    expect(byId.code, byId.stderr).toBe(0)
    expect(byId.stdout).toContain('end every session of reader 42: refresh tokens revoked, access tokens refused at the next request')
    expect(byId.stdout).toContain('ended: every session of reader 42 (reader@example.com); 1 device(s) were signed in')
    expect(api.seen).toEqual([
      {
        method: 'POST',
        path: '/api/ops/readers/42/sessions/end',
        authorization: `Bearer ${LOCAL_OPS_TOKEN}`,
        contentType: 'application/json',
        body: { reason: 'ticket 7' },
      },
    ])
    api.seen = []
    const byEmail = await api.ops(['reader', 'sessions', 'end', '--email', 'reader@example.com', '--reason', 'shared account'])
    expect(byEmail.code, byEmail.stderr).toBe(0)
    expect(byEmail.stdout).toContain('end every session of reader 42 (reader@example.com, 1 device(s) signed in)')
    expect(api.seen.map((s) => [s.method, s.path, s.body])).toEqual([
      ['GET', '/api/ops/readers?email=reader%40example.com', null],
      ['POST', '/api/ops/readers/42/sessions/end', { reason: 'shared account' }],
    ])
  })

  it('sends no change to an address that is not local without --yes', async () => {
    const r = await api.ops(['reader', 'sessions', 'end', '--id', '42', '--reason', 'r'], { OPS_URL: 'http://ops.invalid', OPS_TOKEN: 't' })
    expect(r.code).toBe(2)
    expect(r.stdout).toContain('plan (http://ops.invalid):')
    expect(r.stderr.split('\n')[0]).toBe('ops: http://ops.invalid is not a local run: nothing sent; add --yes to do it')
    expect(api.seen).toEqual([])
  })

  it("prints the API's refusals as one line with their code, exit code 1", async () => {
    api.reply = () => json(404, { result: 'ERROR', code: 'NOT_FOUND_USER', message: 'Utilisateur introuvable.', requestId: 'r1' })
    const shown = await api.ops(['reader', 'show', '--email', 'nobody@example.com'])
    expect(shown.code).toBe(1)
    expect(shown.stderr.trim()).toBe(
      'ops: NOT_FOUND_USER (HTTP 404) from GET /api/ops/readers?email=nobody%40example.com: Utilisateur introuvable.',
    )
    const ended = await api.ops(['reader', 'sessions', 'end', '--id', '9', '--reason', 'r'])
    expect(ended.code).toBe(1)
    expect(ended.stderr.trim()).toBe('ops: NOT_FOUND_USER (HTTP 404) from POST /api/ops/readers/9/sessions/end: Utilisateur introuvable.')
  })

  it('lists the commands in --help and explains each in help <command>', async () => {
    const names = ['reader show', 'reader sessions end']
    const [all, ...each] = await Promise.all([
      api.ops(['--help']),
      ...names.map((n) => api.ops([...n.split(' '), '--help'])),
      api.ops(['help', 'reader', 'sessions', 'end']),
    ])
    for (const [i, name] of names.entries()) {
      expect(all.stdout).toMatch(new RegExp(`\\n  ${name}\\s+\\S`))
      expect(each[i]!.code).toBe(0)
      expect(each[i]!.stdout).toContain(`usage: npm run ops -- ${name}`)
      expect(each[i]!.stdout).toContain('OPS_URL')
    }
    expect(each[2]!.stdout).toContain('usage: npm run ops -- reader sessions end')
  })
})
