/**
 * `npm run ops -- audit`, `operator list|add|revoke` (issue 39 point 5) and `payment show|refund` (point 8) through the
 * command line, against the tiny HTTP server standing in for the operator API (fake-api.ts): the requests sent, what
 * each prints, the refusals of a bad command line with nothing sent, `--yes` for an address that is not local, a lost
 * audit row warned about, help. The API itself runs on real D1 in tests/worker/ops-audit.test.ts and ops-payment.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { expectRefusedUnsent, REFUSAL_TEST_TIMEOUT_MS, fakeApi, json, LOCAL_OPS_TOKEN, success, type FakeApi } from './fake-api.ts'

let api: FakeApi
beforeAll(async () => {
  api = await fakeApi()
})
afterAll(() => api.close())
beforeEach(() => api.reset())

const entries = [
  {
    id: 12,
    at: '2026-11-30T09:15:00.000Z',
    operator: 'alice',
    action: 'notice.edit',
    route: 'POST /api/ops/notices/5',
    target: 'notice:5',
    reason: 'typo',
    before: { id: 5, title: 'Maintenence', is_pinned: 0 },
    after: { id: 5, title: 'Maintenance', is_pinned: 0 },
    detail: { noticeId: 5, fields: ['title'] },
    requestId: 'r12',
  },
  {
    id: 11,
    at: '2026-11-29T23:30:00.000Z',
    operator: 'root',
    action: 'coins.grant',
    route: 'POST /api/ops/coins',
    target: 'user:42',
    reason: 'support #12',
    before: { BONUS: 5, COIN: 0 },
    after: { BONUS: 15, COIN: 0 },
    detail: { userId: 42, type: 'BONUS', amount: 10 },
    requestId: 'r11',
  },
  {
    id: 10,
    at: '2026-11-29T08:00:00.000Z',
    operator: 'root',
    action: 'operator.add',
    route: 'POST /api/ops/operators',
    target: 'operator:alice',
    reason: 'joins support',
    before: null,
    after: { id: 1, name: 'alice', revoked_at: null },
    detail: null,
    requestId: 'r10',
  },
]

const payment = {
  payment: {
    id: 'pay_abc',
    userId: 42,
    email: 'reader@example.com',
    state: 'PAID',
    provider: 'stripe',
    method: 'card',
    providerRef: 'pi_1',
    amount: 499,
    currency: 'EUR',
    coins: 50,
    bonus: 5,
    createdAt: '2026-11-28T10:00:00.000Z',
    paidAt: '2026-11-28T10:00:05.000Z',
    cancelledAt: null,
    refundedAt: null,
  },
  lots: [
    { id: 7, type: 'COIN', amount: 50, remaining: 50 },
    { id: 8, type: 'BONUS', amount: 5, remaining: 5 },
  ],
  events: [{ provider: 'stripe', eventId: 'evt_1', type: 'checkout.session.completed', receivedAt: '2026-11-28T10:00:05.000Z' }],
  reversals: [],
  refusal: null,
}

describe('npm run ops -- audit, operator, payment', () => {
  it(
    'refuses a bad command line with one clear line, before sending anything',
    async () => {
      const cases: [string[], RegExp][] = [
        [['audit', '--days', '0'], /--days must be a whole number from 1 to 366/],
        [['audit', '--days', '400'], /--days must be a whole number from 1 to 366/],
        [['audit', '--target', 'notice'], /--target must be KIND:ID/],
        [['audit', '--operator', 'Bad Name'], /--operator must be root or an operator name/],
        [['audit', '--limit', '0'], /--limit must be a whole number from 1 to 200/],
        [['audit', 'extra'], /unexpected argument "extra"/],
        [['operator', 'add'], /give the operator name/],
        [['operator', 'add', 'root', '--reason', 'r'], /operator name "root" must be/],
        [['operator', 'add', 'Alice', '--reason', 'r'], /operator name "Alice" must be/],
        [['operator', 'add', 'alice'], /--reason is required/],
        [['operator', 'add', 'alice', 'bob', '--reason', 'r'], /unexpected argument "bob"/],
        [['operator', 'revoke', 'alice', '--reason', 'r'.repeat(201)], /--reason must be 1 to 200 characters/],
        [['payment', 'show'], /give the payment id/],
        [['payment', 'show', 'abc'], /"abc" is not a payment id/],
        [['payment', 'refund', 'pay_abc'], /--reason is required/],
        [['payment', 'refund', 'pay_ABC', '--reason', 'r'], /"pay_ABC" is not a payment id/],
        [['payment', 'refund', 'pay_abc', '--reason', 'r', '--all'], /Unknown option '--all'/],
      ]
      await expectRefusedUnsent(api, cases)
    },
    REFUSAL_TEST_TIMEOUT_MS,
  )

  it('audit: GET /api/ops/audit with its filters; each change with its operator, target, reason and fields before → after', async () => {
    api.reply = () => success({ items: entries, next: '11', timeZone: 'Europe/Paris' })
    const r = await api.ops(['audit', '--days', '7', '--operator', 'alice', '--target', 'notice:5', '--limit', '2'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('3 changes (http://127.0.0.1:')
    expect(r.stdout).toContain('days 7, target notice:5, operator alice, newest first; times in Europe/Paris:')
    expect(r.stdout).toContain('#12  2026-11-30 10:15  alice  notice.edit  notice:5')
    expect(r.stdout).toContain('  POST /api/ops/notices/5 · reason: typo')
    expect(r.stdout).toContain('  title: "Maintenence" → "Maintenance"')
    expect(r.stdout).not.toContain('is_pinned')
    expect(r.stdout).toContain('#11  2026-11-30 00:30  root  coins.grant  user:42')
    expect(r.stdout).toContain('  BONUS: 5 → 15')
    expect(r.stdout).toContain('  created: {"id":1,"name":"alice","revoked_at":null}')
    expect(r.stdout).toContain('more: npm run ops -- audit --days 7 --target notice:5 --operator alice --limit 2 --cursor 11')
    expect(api.seen.map((s) => [s.method, s.path, s.authorization])).toEqual([
      ['GET', '/api/ops/audit?limit=2&days=7&target=notice%3A5&operator=alice', `Bearer ${LOCAL_OPS_TOKEN}`],
    ])
  })

  it('operator add prints the token once; revoke and list; a named token is sent as given', async () => {
    api.reply = (path) =>
      path === '/api/ops/operators'
        ? success({
            operator: { id: 3, name: 'alice', createdBy: 'root', createdAt: '2026-11-30T09:00:00.000Z', revokedAt: null },
            token: `wto_${'a'.repeat(43)}`,
          })
        : success({ id: 3, name: 'alice', createdBy: 'root', createdAt: '2026-11-30T09:00:00.000Z', revokedAt: '2026-12-01T08:00:00.000Z' })
    const added = await api.ops(['operator', 'add', 'alice', '--reason', 'new support agent'])
    expect(added.code, added.stderr).toBe(0)
    expect(added.stdout).toContain('a token for operator alice, printed once (only root may do this)')
    expect(added.stdout).toContain(`added: operator alice (id 3). Its token, shown this once:\n\n  wto_${'a'.repeat(43)}\n`)
    const revoked = await api.ops(['operator', 'revoke', 'alice', '--reason', 'left'], { OPS_TOKEN: 'root-token-for-test' })
    expect(revoked.code, revoked.stderr).toBe(0)
    expect(revoked.stdout).toContain('revoked: operator alice (id 3) at 2026-12-01 08:00')
    expect(api.seen.map((s) => [s.method, s.path, s.authorization, s.body])).toEqual([
      ['POST', '/api/ops/operators', `Bearer ${LOCAL_OPS_TOKEN}`, { name: 'alice', reason: 'new support agent' }],
      ['POST', '/api/ops/operators/alice/revoke', 'Bearer root-token-for-test', { reason: 'left' }],
    ])
    api.reset()
    api.reply = () =>
      success({ items: [{ id: 3, name: 'alice', createdBy: 'root', createdAt: '2026-11-30T09:00:00.000Z', revokedAt: null }] })
    const list = await api.ops(['operator', 'list'])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toMatch(/3\s+alice\s+2026-11-30 09:00 UTC\s+root\s+live/)
  })

  it('a named operator managing operators: the API refusal in one line, exit 1', async () => {
    api.reply = () =>
      json(403, {
        result: 'ERROR',
        code: 'UNAUTHORIZED_USER',
        message: 'operator bob may not manage operators: only root (OPS_TOKEN) does',
      })
    const r = await api.ops(['operator', 'add', 'carol', '--reason', 'r'], { OPS_TOKEN: `wto_${'b'.repeat(43)}` })
    expect(r.code).toBe(1)
    expect(r.stderr.trim()).toBe(
      'ops: UNAUTHORIZED_USER (HTTP 403) from POST /api/ops/operators: operator bob may not manage operators: only root (OPS_TOKEN) does',
    )
  })

  it("payment show: the payment, its lots, the provider's events, reversals, whether it can be refunded", async () => {
    api.reply = () => success(payment)
    const r = await api.ops(['payment', 'show', 'pay_abc'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('payment pay_abc: PAID · €4.99 · 50 coins + 5 bonus · stripe/card')
    expect(r.stdout).toContain('reader 42 (reader@example.com) · provider ref pi_1')
    expect(r.stdout).toMatch(/7\s+COIN\s+50\s+50/)
    expect(r.stdout).toMatch(/2026-11-28 10:00 UTC\s+checkout.session.completed\s+evt_1\s+stripe/)
    expect(r.stdout).toContain('refund: possible (npm run ops -- payment refund pay_abc --reason …)')
    expect(api.seen.map((s) => [s.method, s.path])).toEqual([['GET', '/api/ops/payments/pay_abc']])
  })

  it('payment refund: reads the payment for the plan, then refunds; a refused one is one line before anything is sent', async () => {
    api.reply = (path) =>
      path.endsWith('/refund')
        ? success({ paymentId: 'pay_abc', refunded: { coin: 50, bonus: 5, freeCoin: 0, mileage: 0 }, coin: {} })
        : success(payment)
    const r = await api.ops(['payment', 'refund', 'pay_abc', '--reason', 'double charge'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('refund payment pay_abc of reader 42 (reader@example.com): €4.99 back through stripe')
    expect(r.stdout).toContain("coins leaving the reader's wallet first: 50 COIN, 5 BONUS; they come back if the provider refuses")
    expect(r.stdout).toContain('refunded: payment pay_abc; taken back 50 COIN, 5 BONUS, 0 FREE_COIN, 0 MILEAGE')
    expect(api.seen.map((s) => [s.method, s.path, s.body])).toEqual([
      ['GET', '/api/ops/payments/pay_abc', null],
      ['POST', '/api/ops/payments/pay_abc/refund', { reason: 'double charge' }],
    ])
    api.reset()
    api.reply = () => success({ ...payment, refusal: 'its coins were used: COIN 3 of 50' })
    const used = await api.ops(['payment', 'refund', 'pay_abc', '--reason', 'r'])
    expect(used.code).toBe(1)
    expect(used.stderr.trim()).toBe(
      'ops: INVALID_PARAMETER (NOT_REFUNDABLE): payment pay_abc cannot be refunded: its coins were used: COIN 3 of 50',
    )
    expect(api.seen.map((s) => s.method)).toEqual(['GET'])
  })

  it('sends no change to an address that is not local without --yes; warns when the audit row was lost', async () => {
    const remote = await api.ops(['operator', 'revoke', 'alice', '--reason', 'r'], { OPS_URL: 'http://ops.invalid', OPS_TOKEN: 't' })
    expect(remote.code).toBe(2)
    expect(remote.stdout).toContain('plan (http://ops.invalid):')
    expect(remote.stderr.split('\n')[0]).toBe('ops: http://ops.invalid is not a local run: nothing sent; add --yes to do it')
    expect(api.seen).toEqual([])
    api.reply = () => ({
      ...success({ id: 3, name: 'alice', createdBy: 'root', createdAt: '2026-11-30T09:00:00.000Z', revokedAt: '2026-12-01T08:00:00.000Z' }),
      headers: { 'x-ops-audit': 'lost' },
    })
    const lost = await api.ops(['operator', 'revoke', 'alice', '--reason', 'r'])
    expect(lost.code).toBe(0)
    expect(lost.stderr).toContain(
      "ops: warning: the audit row of POST /api/ops/operators/alice/revoke was not stored (see the worker's error log)",
    )
  })

  it('lists the commands in --help and explains each in help <command>', async () => {
    const names = ['audit', 'operator list', 'operator add', 'operator revoke', 'payment show', 'payment refund']
    const [all, ...each] = await Promise.all([api.ops(['--help']), ...names.map((n) => api.ops([...n.split(' '), '--help']))])
    for (const [i, name] of names.entries()) {
      expect(all.stdout).toMatch(new RegExp(`\\n  ${name}\\s+\\S`))
      expect(each[i]!.code).toBe(0)
      expect(each[i]!.stdout).toContain(`usage: npm run ops -- ${name}`)
      expect(each[i]!.stdout).toContain('OPS_URL')
    }
  })
})
