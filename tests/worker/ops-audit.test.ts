/**
 * The operator audit trail and named operator tokens (issue 39 point 5; docs/API.md "Operator API":
 * `GET /api/ops/audit`, `GET|POST /api/ops/operators`, `POST /api/ops/operators/{name}/revoke`) on the real edge app
 * and D1: every change leaves one row naming its operator, target, reason, before and after; a refused change leaves
 * none; coins move with their row in one batch (40 concurrent deductions: one row per coin moved); a named token works
 * until revoked, counts as a guess when wrong, and cannot manage operators; 40 concurrent adds of one name give one
 * token, 40 revokes one revocation; 1,000 generated bad bodies per route answer no 5xx and write nothing.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { OPS, expectBadBodiesRefused, logSpy } from './ops.helpers.ts'
import { request } from './app.ts'
import { app, db, expectError, read } from './comment.helpers.ts'
import { makeUser } from './account.helpers.ts'
import { give, newSeries } from './purchase.helpers.ts'
import { readerRows } from './reader-rows.ts'
import { withMoneyFaultAt } from './faults.ts'
import { recordAudit } from '../../src/features/operator/audit.server.ts'
import { adminAdjust } from '../../src/features/wallet/wallet.server.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

type Init = { token?: string; body?: unknown; ip?: string }
function ops(method: string, path: string, init: Init = {}) {
  const headers: Record<string, string> = { authorization: init.token ? `Bearer ${init.token}` : OPS.headers.authorization }
  if (init.ip) headers['cf-connecting-ip'] = init.ip
  if (init.body !== undefined) headers['content-type'] = 'application/json'
  return request(app, `/api/ops${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) })
}

/** The audit rows and operators stored (what every refused request must leave as it was). */
const counts = () =>
  db.first<{ audit: number; operators: number; revoked: number }>(
    `SELECT (SELECT count(*) FROM ops_audit) AS audit, (SELECT count(*) FROM operators) AS operators,
            (SELECT count(*) FROM operators WHERE revoked_at IS NOT NULL) AS revoked`,
  )

let names = 0
const freshName = () => `op-${Date.now().toString(36)}-${++names}`

async function addOperator(name = freshName()): Promise<{ name: string; token: string }> {
  const res = await ops('POST', '/operators', { body: { name, reason: 'new support agent' } })
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201)
  const { data } = await read(res)
  return { name, token: data.token as string }
}

const latestAudit = async (query = '') => (await read(await ops('GET', `/audit${query}`))).data

describe('operator API: named operators', () => {
  it('root adds a named token, shown once and stored only as its hash; the operator changes things under its name', async () => {
    logSpy()
    const name = freshName()
    const res = await ops('POST', '/operators', { body: { name, reason: 'new support agent' } })
    expect(res.status).toBe(201)
    const { data } = await read(res)
    expect(data.token).toMatch(/^wto_[A-Za-z0-9_-]{43}$/)
    expect(data.operator).toMatchObject({ name, createdBy: 'root', revokedAt: null })
    const row = await db.first<{ token_hash: string }>('SELECT token_hash FROM operators WHERE name = ?', name)
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(await db.all('SELECT * FROM operators'))).not.toContain(data.token)
    // the list never shows a token or a hash
    const list = await read(await ops('GET', '/operators'))
    expect(list.data.items).toContainEqual(expect.objectContaining({ name, createdBy: 'root', revokedAt: null }))
    expect(JSON.stringify(list.data)).not.toMatch(/hash|wto_/)

    // the operator publishes a notice: the audit row names them, with the reason and the notice after
    const notice = await ops('POST', '/notices', {
      token: data.token,
      body: { title: 'Maintenance', body: 'Tonight.', reason: 'db upgrade' },
    })
    expect(notice.status).toBe(201)
    const noticeId = (await read(notice)).data.id as number
    const page = await latestAudit(`?target=notice:${noticeId}`)
    expect(page.items).toEqual([
      expect.objectContaining({
        operator: name,
        action: 'notice.publish',
        route: 'POST /api/ops/notices',
        target: `notice:${noticeId}`,
        reason: 'db upgrade',
        before: null,
        after: expect.objectContaining({ id: noticeId, title: 'Maintenance', is_pinned: 0 }),
      }),
    ])
    // and the add itself is in the trail, root's, in its own batch
    expect((await latestAudit(`?target=operator:${name}`)).items).toEqual([
      expect.objectContaining({
        operator: 'root',
        action: 'operator.add',
        reason: 'new support agent',
        after: expect.objectContaining({ name }),
      }),
    ])
  })

  it('a named operator may not manage operators (403 UNAUTHORIZED_USER), nothing written', async () => {
    const { token } = await addOperator()
    const before = await counts()
    await expectError(await ops('POST', '/operators', { token, body: { name: freshName(), reason: 'r' } }), 403, 'UNAUTHORIZED_USER')
    await expectError(await ops('POST', '/operators/root/revoke', { token, body: { reason: 'r' } }), 403, 'UNAUTHORIZED_USER')
    await expectError(await ops('GET', '/operators', { token }), 403, 'UNAUTHORIZED_USER')
    expect(await counts()).toEqual(before)
  })

  it('revoke: the token is refused from the next request on (401), the trail keeps its changes, the name can get a new token', async () => {
    const { name, token } = await addOperator()
    expect((await ops('GET', '/qna', { token })).status).toBe(200)
    const res = await ops('POST', `/operators/${name}/revoke`, { body: { reason: 'left the team' } })
    expect(res.status).toBe(200)
    expect((await read(res)).data).toMatchObject({ name, revokedAt: expect.any(String) })
    await expectError(await ops('GET', '/qna', { token }), 401, 'NOT_LOGIN_USER')
    await expectError(await ops('POST', `/operators/${name}/revoke`, { body: { reason: 'again' } }), 404, 'NOT_EXIST')
    const [revoke] = (await latestAudit(`?target=operator:${name}`)).items
    expect(revoke).toMatchObject({
      operator: 'root',
      action: 'operator.revoke',
      reason: 'left the team',
      before: expect.objectContaining({ revoked_at: null }),
      after: expect.objectContaining({ revoked_at: expect.any(String) }),
    })
    const again = await addOperator(name)
    expect((await ops('GET', '/qna', { token: again.token })).status).toBe(200)
    await expectError(await ops('GET', '/qna', { token }), 401, 'NOT_LOGIN_USER')
  })

  it('a name with a live token is refused; bad names are refused; nothing written', async () => {
    const { name } = await addOperator()
    const before = await counts()
    await expectError(await ops('POST', '/operators', { body: { name, reason: 'twice' } }), 400, 'INVALID_PARAMETER')
    for (const bad of ['root', 'A', 'x', '1abc', 'a'.repeat(33), 'bad name', 'é-op'])
      await expectError(await ops('POST', '/operators', { body: { name: bad, reason: 'r' } }), 400, 'INVALID_PARAMETER')
    expect(await counts()).toEqual(before)
  })

  it('40 concurrent adds of one name give one token and one audit row; 40 concurrent revokes revoke once with one row', async () => {
    const name = freshName()
    const adds = await Promise.all(Array.from({ length: 40 }, () => ops('POST', '/operators', { body: { name, reason: 'race' } })))
    expect(adds.map((r) => r.status).sort()).toEqual([201, ...Array(39).fill(400)])
    expect(await db.first('SELECT count(*) AS n FROM operators WHERE name = ?', name)).toEqual({ n: 1 })
    const revokes = await Promise.all(
      Array.from({ length: 40 }, () => ops('POST', `/operators/${name}/revoke`, { body: { reason: 'race' } })),
    )
    expect(revokes.filter((r) => r.status === 200)).toHaveLength(1)
    expect(revokes.filter((r) => r.status === 404)).toHaveLength(39)
    expect(await db.all(`SELECT action FROM ops_audit WHERE target = ? ORDER BY id`, `operator:${name}`)).toEqual([
      { action: 'operator.add' },
      { action: 'operator.revoke' },
    ])
  })

  it('the guess limit holds for named tokens: wrong ones count (20, then 429), a right one never adds up', async () => {
    const { token } = await addOperator()
    const wrong = (i: number) => `wto_${String(i).padStart(43, 'x')}`
    const ip = '192.0.2.150'
    const codes: (string | undefined)[] = []
    for (let i = 0; i < 60; i += 30)
      codes.push(
        ...(await Promise.all(
          Array.from({ length: 30 }, async (_, j) => (await read(await ops('GET', '/qna', { token: wrong(i + j), ip }))).code),
        )),
      )
    expect(codes.filter((c) => c === 'NOT_LOGIN_USER')).toHaveLength(20)
    expect(codes.filter((c) => c === 'TOO_MANY_REQUESTS')).toHaveLength(40)
    expect((await ops('GET', '/qna', { token, ip })).status).toBe(429)
    for (let i = 0; i < 3; i++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => ops('GET', '/qna', { token, ip: '192.0.2.151' })))
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200))
    }
  })

  it('1,000 generated bad bodies per operator route: no 5xx, nothing written', async () => {
    const { name } = await addOperator()
    const before = await counts()
    await expectBadBodiesRefused(['/api/ops/operators', `/api/ops/operators/${name}/revoke`], {
      name: fc.oneof(fc.constant(freshName()), fc.string(), fc.integer()),
    })
    expect(await counts()).toEqual(before)
  }, 120_000)
})

describe('operator API: the audit trail', () => {
  it('coins: the row is in the movement batch, with the wallet before and after; a refused deduction leaves no row', async () => {
    const user = await makeUser()
    await give(user.id, 'BONUS', 5)
    const grant = await ops('POST', '/coins', { body: { email: user.email, type: 'BONUS', amount: 10, reason: 'support #12' } })
    expect(grant.status).toBe(200)
    const before = await counts()
    await expectError(
      await ops('POST', '/coins', { body: { email: user.email, type: 'BONUS', amount: -100, reason: 'too much' } }),
      402,
      'COIN_INSUFFICIENT',
    )
    expect(await counts()).toEqual(before)
    const [row] = (await latestAudit(`?target=user:${user.id}`)).items
    expect(row).toMatchObject({
      operator: 'root',
      action: 'coins.grant',
      route: 'POST /api/ops/coins',
      reason: 'support #12',
      before: { BONUS: 5, FREE_COIN: 0, COIN: 0, MILEAGE: 0, debt: 0 },
      after: { BONUS: 15, FREE_COIN: 0, COIN: 0, MILEAGE: 0, debt: 0 },
      detail: { userId: user.id, type: 'BONUS', amount: 10 },
    })
  })

  it('after the batch: a refused movement records no audit row; a row written after its change is never lost silently', async () => {
    const user = await makeUser()
    const record = { operator: 'root', action: 'coins.grant', route: 'POST /api/ops/coins', target: `user:${user.id}`, reason: 'r' }
    // the grant's batch over the reader's rows: lot, ledger row, balances, the last failing: the reader's object rolls the whole
    // batch back, and the audit row (shared, recorded right after the batch) is never written
    let recorded = 0
    await expect(
      withMoneyFaultAt(2, () =>
        adminAdjust(db, { email: user.email, type: 'BONUS', amount: 5, reason: 'r' }, new Date(), async () => recorded++),
      ),
    ).rejects.toThrow()
    expect(recorded).toBe(0)
    expect(await readerRows.first(user.id, `SELECT count(*) AS n FROM coin_lots WHERE user_id = ?`, user.id)).toEqual({ n: 0 })
    expect(await readerRows.first(user.id, `SELECT count(*) AS n FROM coin_ledger WHERE user_id = ?`, user.id)).toEqual({ n: 0 })
    // a row D1 refuses twice goes whole to the error log, and recordAudit says so (the route answers X-Ops-Audit: lost)
    const errors: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
    const refusing = {
      ...db,
      first: async () => {
        throw new Error('D1_ERROR: database is locked')
      },
    }
    const id = await recordAudit(refusing, {
      ...record,
      before: { a: 1 },
      after: { a: 2 },
      requestId: 'req-2',
      at: '2026-12-01T00:00:00.000Z',
    })
    expect(id).toBeNull()
    expect(errors.map((e) => JSON.parse(e))).toEqual([
      {
        opsAuditLost: expect.objectContaining({
          ...record,
          before: { a: 1 },
          after: { a: 2 },
          requestId: 'req-2',
          error: expect.stringContaining('locked'),
        }),
      },
    ])
  })

  it('40 concurrent deductions of 1 from a balance of 10: 10 move, 10 audit rows, the wallet at 0', async () => {
    const user = await makeUser()
    await give(user.id, 'BONUS', 10)
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => ops('POST', '/coins', { body: { email: user.email, type: 'BONUS', amount: -1, reason: 'race' } })),
    )
    const moved = answers.filter((r) => r.status === 200).length
    expect(moved).toBe(10)
    expect(answers.filter((r) => r.status === 402)).toHaveLength(30)
    expect(await db.first(`SELECT count(*) AS n FROM ops_audit WHERE target = ? AND action = 'coins.deduct'`, `user:${user.id}`)).toEqual({
      n: 10,
    })
    expect(await readerRows.first(user.id, `SELECT sum(remaining) AS left FROM coin_lots WHERE user_id = ?`, user.id)).toEqual({ left: 0 })
  })

  it('a change right after: a notice edited, pinned, unpublished — each with its before and after, newest first', async () => {
    const created = (await read(await ops('POST', '/notices', { body: { title: 'Old', body: 'B', reason: 'first' } }))).data
    const id = created.id as number
    expect((await ops('POST', `/notices/${id}`, { body: { title: 'New', reason: 'typo' } })).status).toBe(200)
    expect((await ops('POST', `/notices/${id}/pin`, { body: { pinned: true, reason: 'important' } })).status).toBe(200)
    expect((await ops('POST', `/notices/${id}/unpublish`, { body: { reason: 'over' } })).status).toBe(200)
    const { items } = await latestAudit(`?target=notice:${id}`)
    expect(items.map((i: { action: string }) => i.action)).toEqual(['notice.unpublish', 'notice.pin', 'notice.edit', 'notice.publish'])
    expect(items[2]).toMatchObject({ before: expect.objectContaining({ title: 'Old' }), after: expect.objectContaining({ title: 'New' }) })
    expect(items[1]).toMatchObject({ before: expect.objectContaining({ is_pinned: 0 }), after: expect.objectContaining({ is_pinned: 1 }) })
    expect(items[0].after.published_at).toMatch(/^9999-12-31/)
    // a refused change (unknown notice) leaves nothing
    const before = await counts()
    expect((await ops('POST', '/notices/999999/unpublish', { body: { reason: 'x' } })).status).toBe(404)
    expect(await counts()).toEqual(before)
  })

  it('filters by operator and days, pages newest first by cursor; bad queries are 400 INVALID_PARAMETER', async () => {
    const { name, token } = await addOperator()
    for (let i = 0; i < 3; i++)
      expect((await ops('POST', '/notices', { token, body: { title: `N${i}`, body: 'B', reason: `r${i}` } })).status).toBe(201)
    const first = await latestAudit(`?operator=${name}&days=1&limit=2`)
    expect(first.items.map((i: { reason: string }) => i.reason)).toEqual(['r2', 'r1'])
    expect(first.next).not.toBeNull()
    expect(first.timeZone).toBe('Europe/Paris')
    const second = await latestAudit(`?operator=${name}&limit=2&cursor=${first.next}`)
    expect(second.items.map((i: { reason: string }) => i.reason)).toEqual(['r0'])
    expect(second.next).toBeNull()
    // an old row is outside --days
    await db.run(`UPDATE ops_audit SET at = '2020-01-01T00:00:00.000Z' WHERE operator = ? AND reason = 'r0'`, name)
    expect((await latestAudit(`?operator=${name}&days=30`)).items).toHaveLength(2)
    for (const q of [
      'days=0',
      'days=367',
      'days=x',
      'limit=0',
      'limit=201',
      'cursor=-1',
      'target=notice',
      'target=a:b c',
      'operator=Bad Name',
      'days=1&days=2',
    ])
      await expectError(await ops('GET', `/audit?${q}`), 400, 'INVALID_PARAMETER')
  })

  it('episode publish records its optional reason; one without a body records none', async () => {
    const { episodeIds } = await newSeries({ episodes: 2 })
    await db.run(`UPDATE episodes SET published_at = '2099-01-01T00:00:00.000Z' WHERE id IN (?, ?)`, episodeIds[0], episodeIds[1])
    expect((await ops('POST', `/episodes/${episodeIds[0]}/publish`, { body: { reason: 'author delivered early' } })).status).toBe(200)
    expect((await ops('POST', `/episodes/${episodeIds[1]}/publish`)).status).toBe(200)
    const [withReason] = (await latestAudit(`?target=episode:${episodeIds[0]}`)).items
    expect(withReason).toMatchObject({ action: 'episode.publish', reason: 'author delivered early' })
    expect(withReason.before.published_at).toBe('2099-01-01T00:00:00.000Z')
    expect(withReason.after.published_at < '2099').toBe(true)
    expect((await latestAudit(`?target=episode:${episodeIds[1]}`)).items).toEqual([expect.objectContaining({ reason: null })])
  })

  it("more change routes record their row: a reader's sessions ended (no e-mail kept), an event created and ended", async () => {
    const user = await makeUser()
    expect((await ops('POST', `/readers/${user.id}/sessions/end`, { body: { reason: 'stolen phone' } })).status).toBe(200)
    const [ended] = (await latestAudit(`?target=user:${user.id}`)).items
    expect(ended).toMatchObject({ action: 'reader.sessions.end', reason: 'stolen phone' })
    expect(ended.after.session_version).toBe(ended.before.session_version + 1)
    expect(JSON.stringify(ended)).not.toContain(user.email)
    const event = (await read(await ops('POST', '/events', { body: { title: 'E', endsAt: '2099-01-01', reason: 'promo' } }))).data
    expect((await ops('POST', `/events/${event.id}/end`, { body: { reason: 'done' } })).status).toBe(200)
    expect((await latestAudit(`?target=event:${event.id}`)).items.map((i: { action: string }) => i.action)).toEqual([
      'event.end',
      'event.create',
    ])
  })
})
