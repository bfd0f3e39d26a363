/**
 * The operator API (docs/API.md "Operator API") at /api/ops on the real edge app and D1: off without
 * OPS_TOKEN, 401 without the right bearer token, grants and deductions with it; the wallet report coins show prints.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env, withEnv } from 'cloudflare:workers'
import { appFor, request } from './app.ts'
import { seedDemo, DEMO_ACCOUNTS } from './seed.ts'
import { isErrorCode } from '../../src/lib/errors/catalogue.ts'
import { createDb } from '../../src/lib/server/db.ts'
import { walletTotals } from '../../src/features/wallet/wallet.server.ts'
import { auditLines, logSpy } from './ops.helpers.ts'
import { readerRows } from './reader-rows.ts'

const app = appFor()
const BASE = '/api/ops'
const TOKEN = 'test-ops-token' // vitest.config.ts worker bindings
const READER = DEMO_ACCOUNTS.reader

type Envelope = { result: string; code?: string; message?: string; data?: any }

function call(path: string, opts: { token?: string | null; authorization?: string; body?: unknown; method?: string; ip?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (opts.ip) headers['cf-connecting-ip'] = opts.ip
  if (opts.authorization !== undefined) headers.authorization = opts.authorization
  else if (opts.token !== null) headers.authorization = `Bearer ${opts.token ?? TOKEN}`
  return request(app, `${BASE}${path}`, {
    method: opts.method ?? 'POST',
    headers,
    body: opts.method === 'GET' ? undefined : JSON.stringify(opts.body ?? {}),
  })
}

const coins = (body: unknown, token?: string | null) => call('/coins', { body, token })

async function json(res: Response): Promise<Envelope> {
  const body = (await res.json()) as Envelope
  if (body.result === 'ERROR') {
    expect(isErrorCode(body.code!)).toBe(true)
    expect(body.message).not.toMatch(/^error\./)
  }
  return body
}

beforeAll(async () => {
  await seedDemo(env.DB)
})

describe('operator API', () => {
  it('does not exist when OPS_TOKEN is unset or empty: every path answers 404 NOT_EXIST', async () => {
    for (const OPS_TOKEN of ['', undefined]) {
      const off = { ...env, OPS_TOKEN }
      for (const [path, token] of [
        ['/coins', TOKEN],
        ['/coins', ''],
        ['/anything', TOKEN],
        ['', null],
      ] as const) {
        const res = (await withEnv(off, () =>
          call(path, { token, body: { email: READER.email, type: 'COIN', amount: 5, reason: 'x' } }),
        )) as Response
        expect(res.status, `${path} ${OPS_TOKEN}`).toBe(404)
        expect((await json(res)).code).toBe('NOT_EXIST')
      }
    }
  })

  it('answers 401 NOT_LOGIN_USER to a missing, wrong or non-bearer token, and moves nothing', async () => {
    const db = createDb(env.DB)
    const before = await walletTotals(db, READER.id)
    const body = { email: READER.email, type: 'COIN', amount: 5, reason: 'x' }
    for (const authorization of [
      undefined,
      '',
      'Bearer',
      'Bearer wrong',
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Basic ${btoa(`ops:${TOKEN}`)}`,
      TOKEN,
    ]) {
      const res = authorization === undefined ? await coins(body, null) : await call('/coins', { authorization, body })
      expect(res.status, String(authorization)).toBe(401)
      expect(res.headers.get('www-authenticate')).toContain('Bearer')
      expect((await json(res)).code).toBe('NOT_LOGIN_USER')
    }
    // the token is checked before the path: unknown paths do not leak that the API is on
    expect((await call('/nope', { token: 'wrong' })).status).toBe(401)
    expect(await walletTotals(db, READER.id)).toEqual(before)
  })

  it('grants and deducts with the right token (ledger source ADMIN)', async () => {
    const grant = await coins({ email: READER.email, type: 'BONUS', amount: 40, reason: 'compensation for outage' })
    expect(grant.status).toBe(200)
    expect(grant.headers.get('cache-control')).toBe('no-store')
    const g = await json(grant)
    expect(g.result).toBe('SUCCESS')
    expect(g.data.entries).toEqual([
      expect.objectContaining({ kind: 'CHARGE', source: 'ADMIN', type: 'BONUS', amount: 40, description: 'compensation for outage' }),
    ])
    const bonusAfterGrant = g.data.balances.BONUS

    const deduct = await coins({ email: READER.email.toUpperCase(), type: 'BONUS', amount: -45, reason: 'duplicate compensation' })
    expect(deduct.status).toBe(200)
    const d = await json(deduct)
    expect(d.data.entries.length).toBeGreaterThanOrEqual(2) // spans lots
    for (const e of d.data.entries) expect(e).toMatchObject({ kind: 'CANCEL', source: 'ADMIN', type: 'BONUS' })
    expect(d.data.entries.reduce((s: number, e: { amount: number }) => s + e.amount, 0)).toBe(-45)
    expect(d.data.balances.BONUS).toBe(bonusAfterGrant - 45)
    expect(d.data.balances.total).toBe(d.data.balances.BONUS + d.data.balances.FREE_COIN + d.data.balances.COIN)

    const t = await walletTotals(createDb(env.DB), READER.id)
    expect(t.lots).toBe(t.ledger)
  })

  it('grants with an expiry date', async () => {
    const res = await coins({ email: READER.email, type: 'FREE_COIN', amount: 3, reason: 'promo', expiresAt: '2099-01-31' })
    expect(res.status).toBe(200)
    const body = await json(res)
    expect(body.data.balances.nextExpiries).toContainEqual({ type: 'FREE_COIN', amount: 3, expiresAt: '2099-01-31T23:59:59.999Z' })
  })

  it('refuses bad bodies with INVALID_PARAMETER, unknown accounts with NOT_FOUND_USER, overdrafts with COIN_INSUFFICIENT', async () => {
    const ok = { email: READER.email, type: 'COIN', amount: 5, reason: 'x' }
    for (const bad of [
      { ...ok, amount: 0 },
      { ...ok, amount: 1_000_001 },
      { ...ok, amount: -1_000_001 },
      { ...ok, amount: 2.5 },
      { ...ok, reason: '' },
      { ...ok, reason: 'r'.repeat(201) },
      { ...ok, type: 'DIAMOND' },
      { ...ok, email: 'not-an-email' },
      { ...ok, expiresAt: '2027-02-30' },
      { ...ok, expiresAt: '2001-01-01' },
      { ...ok, amount: -5, expiresAt: '2099-01-01' },
      { email: READER.email },
    ]) {
      const res = await coins(bad)
      expect(res.status, JSON.stringify(bad)).toBe(400)
      expect((await json(res)).code).toBe('INVALID_PARAMETER')
    }
    const unknown = await coins({ ...ok, email: 'ghost@example.com' })
    expect(unknown.status).toBe(404)
    expect((await json(unknown)).code).toBe('NOT_FOUND_USER')
    const short = await coins({ ...ok, amount: -1_000_000 })
    expect(short.status).toBe(402)
    expect((await json(short)).code).toBe('COIN_INSUFFICIENT')
  })

  it('answers unknown operator paths with NOT_EXIST once authenticated', async () => {
    const res = await call('/coins/everything', { body: {} })
    expect(res.status).toBe(404)
    expect((await json(res)).code).toBe('NOT_EXIST')
    const get = await call('/nothing', { method: 'GET' })
    expect(get.status).toBe(404)
  })
})

describe('GET /api/ops/coins (npm run ops -- coins show)', () => {
  const show = (query: string, token?: string | null) => call(`/coins?${query}`, { method: 'GET', token })

  it('is 404 without OPS_TOKEN and 401 with a wrong token', async () => {
    const off = (await withEnv({ ...env, OPS_TOKEN: '' }, () => show(`email=${READER.email}`))) as Response
    expect(off.status).toBe(404)
    expect((await json(off)).code).toBe('NOT_EXIST')
    for (const token of ['wrong', null]) {
      const res = await show(`email=${READER.email}`, token)
      expect(res.status).toBe(401)
      expect((await json(res)).code).toBe('NOT_LOGIN_USER')
    }
  })

  it("answers the account's balances, lots in spend order, the last ledger rows and the invariant's two sums", async () => {
    await coins({ email: READER.email, type: 'BONUS', amount: 7, reason: 'shown by coins show', expiresAt: '2098-06-30' })
    const res = await show(`email=${encodeURIComponent(READER.email.toUpperCase())}&limit=3`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const { data } = await json(res)
    expect(data.userId).toBe(READER.id)
    const db = createDb(env.DB)
    const sums = await walletTotals(db, READER.id)
    expect(data.wallet).toEqual(sums)
    expect(data.wallet.lots).toBe(data.wallet.ledger)
    // the lots' remaining add up to the invariant's sum; spend order: BONUS, FREE_COIN, COIN, MILEAGE
    expect(data.lots.reduce((n: number, l: { remaining: number }) => n + l.remaining, 0)).toBe(sums.lots)
    const order = ['BONUS', 'FREE_COIN', 'COIN', 'MILEAGE']
    const ranks = data.lots.map((l: { type: string }) => order.indexOf(l.type))
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b))
    expect(data.entries).toHaveLength(3)
    expect(data.entries[0]).toMatchObject({ kind: 'CHARGE', source: 'ADMIN', type: 'BONUS', amount: 7, description: 'shown by coins show' })
    const ids = data.entries.map((e: { id: number }) => e.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    expect(data.balances.nextExpiries).toContainEqual({ type: 'BONUS', amount: 7, expiresAt: '2098-06-30T23:59:59.999Z' })
    // default: 20 rows
    expect((await json(await show(`email=${READER.email}`))).data.entries.length).toBe(
      Math.min(
        20,
        (await readerRows.first<{ n: number }>(READER.id, 'SELECT count(*) AS n FROM coin_ledger WHERE user_id = ?', READER.id))!.n,
      ),
    )
  })

  it('refuses an unknown e-mail (404 NOT_FOUND_USER) and a bad query (400 INVALID_PARAMETER)', async () => {
    const unknown = await show('email=ghost@example.com')
    expect(unknown.status).toBe(404)
    expect((await json(unknown)).code).toBe('NOT_FOUND_USER')
    for (const query of [
      '',
      'email=nobody',
      `email=${READER.email}&limit=0`,
      `email=${READER.email}&limit=201`,
      `email=${READER.email}&limit=x`,
    ]) {
      const res = await show(query)
      expect(res.status, query).toBe(400)
      expect((await json(res)).code).toBe('INVALID_PARAMETER')
    }
    expect((await show(`email=${READER.email}&limit=200`)).status).toBe(200)
  })
})

describe('POST /api/ops/coins/debt/forgive (npm run ops -- coins forgive, issue 34 point 3)', () => {
  it("lists a reader's open debts in the wallet report and forgives them once, with the reason in the log line", async () => {
    const db = createDb(env.DB)
    const user = await db.first<{ id: number }>(
      `INSERT INTO users (email, password_hash, nickname) VALUES (?, 'x', ?) RETURNING id`,
      `debtor-${Date.now()}@example.com`,
      `debtor${Date.now() % 1e6}`,
    )
    const email = (await db.first<{ email: string }>(`SELECT email FROM users WHERE id = ?`, user!.id))!.email
    for (const [id, debt] of [
      [`pay_debt_a_${user!.id}`, 8],
      [`pay_debt_b_${user!.id}`, 3],
    ] as const) {
      await readerRows.run(
        user!.id,
        `INSERT INTO payments (id, user_id, state, provider, amount, currency, coins, idempotency_key) VALUES (?, ?, 'REFUNDED', 'stripe', 199, 'EUR', 10, ?)`,
        id,
        user!.id,
        id,
      )
      await readerRows.run(
        user!.id,
        `INSERT INTO payment_reversals (payment_id, user_id, reason, debt) VALUES (?, ?, 'DISPUTE', ?)`,
        id,
        user!.id,
        debt,
      )
    }
    const report = await json(await call(`/coins?email=${encodeURIComponent(email)}`, { method: 'GET' }))
    expect(report.data.debts.map((d: { debt: number }) => d.debt)).toEqual([8, 3])
    expect((await call('/coins/debt/forgive', { body: { email } })).status).toBe(400) // no reason
    expect((await call('/coins/debt/forgive', { body: { email, reason: 'x' }, token: 'wrong' })).status).toBe(401)
    expect((await json(await call('/coins/debt/forgive', { body: { email: 'ghost@example.com', reason: 'x' } }))).code).toBe(
      'NOT_FOUND_USER',
    )
    logSpy()
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => call('/coins/debt/forgive', { body: { email, reason: 'goodwill' } })),
    )
    const forgiven = await Promise.all(answers.map(async (r) => (await json(r)).data.forgiven as number))
    expect(forgiven.reduce((a, b) => a + b, 0)).toBe(11)
    expect(auditLines().filter((l) => l.ops === 'coins.debt.forgive' && (l as { forgiven?: number }).forgiven !== 0)).toHaveLength(1)
    expect((await json(await call(`/coins?email=${encodeURIComponent(email)}`, { method: 'GET' }))).data.debts).toEqual([])
  })
})

describe('issue 34 (6): the operator token cannot be guessed', () => {
  it('300 wrong tokens from one address (40 at a time): 20 looked at, then 429 for that address, even with the right token; another address works', async () => {
    const ip = '192.0.2.200'
    const codes: (string | undefined)[] = []
    for (let i = 0; i < 300; i += 40)
      codes.push(
        ...(await Promise.all(
          Array.from(
            { length: Math.min(40, 300 - i) },
            async (_, j) => (await json(await call('/qna', { method: 'GET', token: `guess-${i + j}`, ip }))).code,
          ),
        )),
      )
    expect(codes.filter((c) => c === 'NOT_LOGIN_USER')).toHaveLength(20)
    expect(codes.filter((c) => c === 'TOO_MANY_REQUESTS')).toHaveLength(280)
    expect((await call('/qna', { method: 'GET', ip })).status).toBe(429)
    expect((await call('/qna', { method: 'GET', ip: '192.0.2.201' })).status).toBe(200)
  })

  it('the right token never adds up: 100 requests of the operator from one address, 10 at a time (the import uploads 4), all pass', async () => {
    for (let i = 0; i < 10; i++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => call('/qna', { method: 'GET', ip: '192.0.2.202' })))
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200))
    }
  })
})
