/**
 * The retention sweep and the expiry sweep on real workerd + D1 (issue 24 point 3, docs/SCALE.md "Retention"): each
 * rule deletes the rows at its limit and keeps those 1 ms younger; a replayed rotated refresh token still ends its
 * session within the reuse-detection window; an ended rental leaves `ownerships` while the purchase, its coin
 * history and the locked page stay; batches never exceed 500 rows and a run goes on until done or out of budget;
 * the coin ledger, coin lots, purchases and paid payments are never touched; the expiry sweep handles > 500 lots.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { app, buy, db, expectError, get, give, newReader, newSeries, read } from './purchase.helpers.ts'
import { frEdition, request } from './app.ts'
import { createDb, type Db } from '../../src/lib/server/db.ts'
import { issueTokens } from '../../src/features/auth/auth.server.ts'
import { expireLots } from '../../src/features/wallet/wallet.server.ts'
import { purgeExpired, type RetentionReport } from '../../src/features/retention/retention.server.ts'
import { RETENTION_RULES, retentionCutoff } from '../../src/features/retention/retention.ts'
import type { SweepBudget } from '../../src/lib/server/sweep.ts'
import { execInReader, readerObject } from './reader.helpers.ts'
import { readerRows } from './reader-rows.ts'
import { DAY_MS } from '../../src/lib/time.ts'

let seq = 0
const tag = () => `ret-${Date.now()}-${++seq}`
const at = (d: Date | string, ms = 0) => new Date(new Date(d).getTime() + ms).toISOString()
const cutoffOf = (table: string, now: Date) =>
  retentionCutoff(
    RETENTION_RULES.find((r) => r.table === table)!,
    now,
  )
const reportOf = (report: RetentionReport[], table: string) => report.find((r) => r.table === table)!
/** 1, 2, …, n: the rows of a bulk insert (through `json_each`). */
const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

/** A Db that records how many rows each statement changed (every batch statement apart). */
function recording(inner: Db): { db: Db; changes: number[] } {
  const changes: number[] = []
  return {
    changes,
    db: {
      all: (sql, ...p) => inner.all(sql, ...p),
      first: (sql, ...p) => inner.first(sql, ...p),
      bookmark: () => inner.bookmark(),
      async run(sql, ...p) {
        const n = await inner.run(sql, ...p)
        changes.push(n)
        return n
      },
      async batch(statements) {
        const results = await inner.batch(statements)
        for (const r of results) changes.push(r.meta.changes ?? 0)
        return results
      },
      get queryCount() {
        return inner.queryCount
      },
    },
  }
}

/** A budget that lets `batches` batches start, then is spent. */
function budgetOf(batches: number): SweepBudget {
  let calls = 0
  return { deadline: batches, clock: () => calls++ }
}

const refresh = (accessToken: string, refreshToken: string) =>
  request(app, '/api/v1/auth/refresh', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accessToken, refreshToken }),
  })

describe('retention rules', () => {
  it('deletes each table’s rows at its limit, keeps those 1 ms younger, and nothing the rule does not name', async () => {
    const now = new Date()
    const reader = await newReader()
    const other = await newReader()
    const t = tag()
    const cut = (table: string, ms = 0) => at(cutoffOf(table, now), ms)

    // refresh_tokens: expired at the limit (rotated or not) vs 1 ms left
    const token = (id: string, expiresAt: string, rotatedAt: string | null) =>
      db.run(
        `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, created_at, expires_at, rotated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        `${t}-${id}`,
        reader.id,
        `${t}-fam`,
        `${t}-${id}-hash`,
        at(expiresAt, -30 * DAY_MS),
        expiresAt,
        rotatedAt,
      )
    await token('rt-gone-rotated', cut('refresh_tokens'), at(now, -DAY_MS))
    await token('rt-gone-unused', cut('refresh_tokens'), null)
    await token('rt-kept-rotated', cut('refresh_tokens', 1), at(now, -DAY_MS))

    // idempotency_keys: 24 h old vs 1 ms younger
    const key = (k: string, createdAt: string) =>
      readerRows.run(
        reader.id,
        `INSERT INTO idempotency_keys (user_id, key, scope, request_hash, response_status, response_body, created_at) VALUES (?, ?, 'POST /purchase', 'h', 200, '{}', ?)`,
        reader.id,
        `${t}-${k}`,
        createdAt,
      )
    await key('idem-gone', cut('idempotency_keys'))
    await key('idem-kept', cut('idempotency_keys', 1))
    expect(cut('idempotency_keys')).toBe(at(now, -DAY_MS))

    // ownerships: ended timed holdings go; a running one and every kept-for-good one stay (even with a past date)
    const s = await newSeries({ episodes: 7 })
    const own = (i: number, kind: string, expiresAt: string | null) =>
      readerRows.run(
        reader.id,
        `INSERT INTO ownerships (user_id, series_id, episode_id, kind, expires_at) VALUES (?, ?, ?, ?, ?)`,
        reader.id,
        s.seriesId,
        s.episodeIds[i],
        kind,
        expiresAt,
      )
    await own(0, 'RENT', cut('ownerships'))
    await own(1, 'ALL_RENT', cut('ownerships'))
    await own(2, 'FREETIME', cut('ownerships'))
    await own(3, 'RENT', cut('ownerships', 1))
    await own(4, 'POSSESSION', null)
    await own(5, 'PERMANENT', at(now, -DAY_MS))
    await own(6, 'ALL_POSSESSION', null)

    // rate_limits: a window that ended vs one with 1 ms left
    const bucket = (b: string, resetAt: string) =>
      db.run(`INSERT INTO rate_limits (bucket, count, reset_at) VALUES (?, 3, ?)`, `${t}-${b}`, resetAt)
    await bucket('rl-gone', cut('rate_limits'))
    await bucket('rl-kept', cut('rate_limits', 1))

    // one_time_codes: 7 days past expiry (used or not) vs 1 ms less
    const code = (target: string, expiresAt: string, usedAt: string | null) =>
      db.run(
        `INSERT INTO one_time_codes (kind, user_id, target, code_hash, expires_at, used_at) VALUES ('EMAIL_OTP', ?, ?, 'h', ?, ?)`,
        reader.id,
        `${t}-${target}`,
        expiresAt,
        usedAt,
      )
    await code('otp-gone-used', cut('one_time_codes'), at(cut('one_time_codes'), -60_000))
    await code('otp-gone-unused', cut('one_time_codes'), null)
    await code('otp-kept', cut('one_time_codes', 1), null)
    expect(cut('one_time_codes')).toBe(at(now, -7 * DAY_MS))

    // carrier_requests: expired vs 1 ms left
    const carrier = (id: string, expiresAt: string) =>
      db.run(
        `INSERT INTO carrier_requests (id, user_id, purpose, expires_at, name, phone, birth_date) VALUES (?, ?, 'PHONE', ?, 'Nom', '+33600000000', '1990-01-01')`,
        `${t}-${id}`,
        reader.id,
        expiresAt,
      )
    await carrier('cr-gone', cut('carrier_requests'))
    await carrier('cr-kept', cut('carrier_requests', 1))

    // payments: never-paid checkouts 30 days old go with their webhook events; younger ones and paid/refunded ones stay
    const payment = (id: string, state: string, createdAt: string) =>
      readerRows.run(
        other.id,
        `INSERT INTO payments (id, user_id, state, provider, amount, currency, idempotency_key, created_at) VALUES (?, ?, ?, 'sandbox', 1499, 'EUR', ?, ?)`,
        `${t}-${id}`,
        other.id,
        state,
        `${t}-${id}-key`,
        createdAt,
      )
    await payment('pay-gone-unpaid', 'UNPAID', cut('payments'))
    await payment('pay-gone-cancelled', 'CANCELLED', cut('payments'))
    await payment('pay-kept-unpaid', 'UNPAID', cut('payments', 1))
    await payment('pay-kept-paid', 'PAID', at(now, -400 * DAY_MS))
    await payment('pay-kept-refunded', 'REFUNDED', at(now, -400 * DAY_MS))
    for (const [event, id] of [
      ['ev-gone', 'pay-gone-cancelled'],
      ['ev-kept', 'pay-kept-paid'],
    ])
      await readerRows.run(
        other.id,
        `INSERT INTO payment_events (provider, event_id, payment_id, type) VALUES ('sandbox', ?, ?, 'checkout.cancelled')`,
        `${t}-${event}`,
        `${t}-${id}`,
      )
    expect(cut('payments')).toBe(at(now, -30 * DAY_MS))
    // the shared payment index: a checkout never credited goes at 180 days; a credited one stays for its refunds
    const indexed = (id: string, createdAt: string, creditedAt: string | null) =>
      db.run(
        `INSERT INTO payment_readers (payment_id, provider, user_id, created_at, credited_at) VALUES (?, 'sandbox', ?, ?, ?)`,
        `${t}-${id}`,
        other.id,
        createdAt,
        creditedAt,
      )
    await indexed('pr-gone', cut('payment_readers'), null)
    await indexed('pr-kept-younger', cut('payment_readers', 1), null)
    await indexed('pr-kept-credited', at(now, -400 * DAY_MS), at(now, -400 * DAY_MS))
    expect(cut('payment_readers')).toBe(at(now, -180 * DAY_MS))

    // deliveries: 30 days old whatever the status vs 1 ms younger
    const delivery = (k: string, status: string, createdAt: string) =>
      db.run(
        `INSERT INTO deliveries (dedupe_key, channel, template, recipient_hash, provider, status, created_at, updated_at) VALUES (?, 'MAIL', 'signup-otp', 'r', 'email', ?, ?, ?)`,
        `${t}-${k}`,
        status,
        createdAt,
        createdAt,
      )
    await delivery('dl-gone-sent', 'SENT', cut('deliveries'))
    await delivery('dl-gone-failed', 'FAILED', cut('deliveries'))
    await delivery('dl-kept', 'SENT', cut('deliveries', 1))

    // library_marks: a row cleared a week ago goes; one cleared 1 ms later and one still marked stay
    const marked = await newSeries({ episodes: 1 })
    const cleared = await newSeries({ episodes: 1 })
    const gone = await newSeries({ episodes: 1 })
    const mark = (seriesId: number, favorite: number, clearedAt: string | null) =>
      db.run(
        `INSERT INTO library_marks (user_id, series_id, favorite, hidden, version, cleared_at) VALUES (?, ?, ?, 0, 2, ?)`,
        reader.id,
        seriesId,
        favorite,
        clearedAt,
      )
    await mark(gone.seriesId, 0, cut('library_marks'))
    await mark(cleared.seriesId, 0, cut('library_marks', 1))
    await mark(marked.seriesId, 1, null)
    expect(cut('library_marks')).toBe(at(now, -7 * DAY_MS))

    // series_readers: a latest read on the cutoff's UTC day goes, one the day after stays
    const readOn = (seriesId: number, day: string) =>
      db.run(`INSERT INTO series_readers (series_id, user_id, read_on) VALUES (?, ?, ?)`, seriesId, reader.id, day)
    await readOn(gone.seriesId, cut('series_readers').slice(0, 10))
    await readOn(cleared.seriesId, cut('series_readers', DAY_MS).slice(0, 10))
    expect(cut('series_readers')).toBe(at(now, -30 * DAY_MS))

    const report = await purgeExpired(db, now)
    expect(report.every((r) => r.done)).toBe(true)
    // the money rows' rules apply in each reader's object, when it wakes
    for (const { id } of [reader, other]) await readerObject(id).wake(id, now.toISOString())

    const like = `${t}-%`
    const left = async (sql: string, ...params: unknown[]) => (await db.all<{ k: string }>(sql, ...params)).map((r) => r.k).sort()
    // the money rows of the reader who owns them (the keys and holdings are `reader`'s, the payments `other`'s)
    const leftOf = async (readerId: number, sql: string, ...params: unknown[]) =>
      (await readerRows.all<{ k: string }>(readerId, sql, ...params)).map((r) => r.k).sort()
    const strip = (ks: string[]) => ks.map((k) => k.slice(t.length + 1))
    expect(strip(await left(`SELECT id AS k FROM refresh_tokens WHERE id LIKE ?`, like))).toEqual(['rt-kept-rotated'])
    expect(strip(await leftOf(reader.id, `SELECT key AS k FROM idempotency_keys WHERE key LIKE ?`, like))).toEqual(['idem-kept'])
    expect(
      (
        await readerRows.all<{ kind: string }>(reader.id, `SELECT kind FROM ownerships WHERE user_id = ? ORDER BY episode_id`, reader.id)
      ).map((r) => r.kind),
    ).toEqual(['RENT', 'POSSESSION', 'PERMANENT', 'ALL_POSSESSION'])
    expect(strip(await left(`SELECT bucket AS k FROM rate_limits WHERE bucket LIKE ?`, like))).toEqual(['rl-kept'])
    expect(strip(await left(`SELECT target AS k FROM one_time_codes WHERE target LIKE ?`, like))).toEqual(['otp-kept'])
    expect(strip(await left(`SELECT id AS k FROM carrier_requests WHERE id LIKE ?`, like))).toEqual(['cr-kept'])
    expect(strip(await leftOf(other.id, `SELECT id AS k FROM payments WHERE id LIKE ?`, like))).toEqual([
      'pay-kept-paid',
      'pay-kept-refunded',
      'pay-kept-unpaid',
    ])
    expect(strip(await leftOf(other.id, `SELECT event_id AS k FROM payment_events WHERE event_id LIKE ?`, like))).toEqual(['ev-kept'])
    expect(
      strip(await left(`SELECT payment_id AS k FROM payment_readers WHERE payment_id LIKE ? AND payment_id LIKE '%-pr-%'`, like)),
    ).toEqual(['pr-kept-credited', 'pr-kept-younger'])
    expect(strip(await left(`SELECT dedupe_key AS k FROM deliveries WHERE dedupe_key LIKE ?`, like))).toEqual(['dl-kept'])
    expect(
      (await db.all<{ id: number }>(`SELECT series_id AS id FROM library_marks WHERE user_id = ? ORDER BY series_id`, reader.id)).map(
        (r) => r.id,
      ),
    ).toEqual([cleared.seriesId, marked.seriesId].sort((a, b) => a - b))
    expect(await db.all(`SELECT series_id AS id FROM series_readers WHERE user_id = ?`, reader.id)).toEqual([{ id: cleared.seriesId }])
    // the reader's own live session (newReader's sign-in) is untouched
    expect((await get(reader, '/api/v1/user/me')).status).toBe(200)
  })

  it("keeps reuse detection in the reader's object: within the window a replayed rotated token ends the session; past it only that token goes", async () => {
    const reader = await newReader()
    const ctx = { issuer: frEdition.siteUrl, t: (k: string) => k }
    const family = async () => {
      const first = await issueTokens(createDb(env.DB), reader.id, ctx)
      const res = await refresh(first.accessToken.value, first.refreshToken.value)
      expect(res.status).toBe(200)
      const second = (await read(res)).data as { accessToken: { value: string }; refreshToken: { value: string } }
      // the replay comes after the 30 s grace of two tabs refreshing at once
      await execInReader(reader.id, `UPDATE refresh_tokens SET rotated_at = ? WHERE rotated_at IS NOT NULL`, at(new Date(), -60_000))
      return { first, second }
    }
    const tokens = async () => Number((await execInReader(reader.id, `SELECT count(*) AS n FROM refresh_tokens`))[0]!.n)

    // within the window (the rotated token's 30 days): kept, and the replay ends the whole session
    const a = await family()
    await expectError(await refresh(a.first.accessToken.value, a.first.refreshToken.value), 401, 'NOT_FOUND_REFRESH_TOKEN')
    await expectError(await refresh(a.second.accessToken.value, a.second.refreshToken.value), 401, 'NOT_FOUND_REFRESH_TOKEN')
    expect((await get({ headers: { authorization: `Bearer ${a.second.accessToken.value}` } }, '/api/v1/user/me')).status).toBe(401)

    // past the window of the first token (its expiry): the next write of the object deletes it, its younger successor
    // keeps the session open
    const b = await family()
    const before = await tokens()
    await execInReader(reader.id, `UPDATE refresh_tokens SET expires_at = ? WHERE rotated_at IS NOT NULL`, at(new Date(), -1))
    const c = await issueTokens(createDb(env.DB), reader.id, ctx)
    expect(await tokens()).toBe(before - 2 + 1) // a's and b's first (rotated) tokens went; c's came
    expect((await get({ headers: { authorization: `Bearer ${b.second.accessToken.value}` } }, '/api/v1/user/me')).status).toBe(200)
    await expectError(await refresh(b.first.accessToken.value, b.first.refreshToken.value), 401, 'NOT_FOUND_REFRESH_TOKEN')
    expect((await refresh(b.second.accessToken.value, b.second.refreshToken.value)).status).toBe(200)
    expect((await refresh(c.accessToken.value, c.refreshToken.value)).status).toBe(200)
  })

  it('answers a retry with the first answer for 24 h; after the sweep the same key is a new request', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 10)
    const s = await newSeries({ episodes: 2 })
    const key = tag()
    const rent = () => buy(reader, { kind: 'RENT', episodeIds: [s.episodeIds[1]] }, key)
    expect((await rent()).status).toBe(200)
    // 1 s short of 24 h: kept, the retry is a replay
    await readerRows.run(
      reader.id,
      `UPDATE idempotency_keys SET created_at = ? WHERE user_id = ? AND key = ?`,
      at(new Date(), -DAY_MS + 1000),
      reader.id,
      key,
    )
    await readerObject(reader.id).wake(reader.id, new Date().toISOString())
    const replay = await rent()
    expect(replay.status).toBe(200)
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true')
    // 24 h old: deleted, the retry runs as a new rental (refused: the first one still runs), nothing moves
    await readerRows.run(
      reader.id,
      `UPDATE idempotency_keys SET created_at = ? WHERE user_id = ? AND key = ?`,
      at(new Date(), -DAY_MS),
      reader.id,
      key,
    )
    await readerObject(reader.id).wake(reader.id, new Date().toISOString())
    await expectError(await rent(), 409, 'RENT_PURCHASE_IMPOSSIBLE')
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM purchases WHERE user_id = ?`, reader.id)).toEqual({ n: 1 })
  })

  it('lets an ended rental leave ownerships: the purchase and its coin history stay, the page is locked as before, renting again works', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 10)
    const s = await newSeries({ episodes: 2 })
    const episode = s.episodeIds[1]!
    expect((await buy(reader, { kind: 'RENT', episodeIds: [episode] })).status).toBe(200)
    // the rental ends
    await readerRows.run(
      reader.id,
      `UPDATE ownerships SET expires_at = ? WHERE user_id = ? AND episode_id = ?`,
      at(new Date(), -1000),
      reader.id,
      episode,
    )
    await expectError(await get(reader, `/api/v1/viewer/${episode}`), 403, 'UNAUTHORIZED_CONTENTS')
    const historyBefore = (await read(await get(reader, '/api/v1/coin/history?kind=USE'))).data.items

    await readerObject(reader.id).wake(reader.id, new Date().toISOString())
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM ownerships WHERE user_id = ?`, reader.id)).toEqual({ n: 0 })
    expect(
      await readerRows.first(reader.id, `SELECT type, coins FROM purchases WHERE user_id = ? AND episode_id = ?`, reader.id, episode),
    ).toEqual({
      type: 'RENT',
      coins: 2,
    })
    // what the reader sees: the same locked page, the same use history (it reads the ledger), the same series page
    await expectError(await get(reader, `/api/v1/viewer/${episode}`), 403, 'UNAUTHORIZED_CONTENTS')
    expect((await read(await get(reader, '/api/v1/coin/history?kind=USE'))).data.items).toEqual(historyBefore)
    expect(historyBefore.length).toBeGreaterThan(0)
    const me = (await read(await get(reader, `/api/v1/contents/${s.seriesId}/me`))).data
    expect(me.ownerships).toEqual([])
    // and the episode can be rented again
    expect((await buy(reader, { kind: 'RENT', episodeIds: [episode] })).status).toBe(200)
    expect((await read(await get(reader, `/api/v1/viewer/${episode}`))).data.access).toMatchObject({ open: true, via: 'RENT' })
  })
})

describe('bounded batches', () => {
  /**
   * `n` expired idempotency rows of a fresh reader, still in D1 (a reader not moved yet: the shared sweep's, whose
   * batches are the same function as the objects')
   */
  async function backlog(n: number) {
    const reader = await newReader()
    await db.run(
      `INSERT INTO idempotency_keys (user_id, key, scope, request_hash, response_status, response_body, created_at)
       SELECT ?, 'bulk-' || value, 'POST /purchase', 'h', 200, '{}', ? FROM json_each(?)`,
      reader.id,
      at(new Date(), -2 * DAY_MS),
      JSON.stringify(oneTo(n)),
    )
    return reader.id
  }
  const keysOf = async (userId: number) =>
    (await db.first<{ n: number }>(`SELECT count(*) AS n FROM idempotency_keys WHERE user_id = ?`, userId))!.n

  it('deletes 1,200 expired rows in one run, never more than 500 per statement', async () => {
    const userId = await backlog(1200)
    const { db: rec, changes } = recording(db)
    const report = await purgeExpired(rec, new Date())
    expect(reportOf(report, 'idempotency_keys')).toEqual({ table: 'idempotency_keys', rows: 1200, batches: 3, done: true })
    expect(Math.max(...changes)).toBe(500)
    expect(await keysOf(userId)).toBe(0)
  })

  it('stops starting batches once its budget is spent; the next run finishes', async () => {
    const userId = await backlog(1200)
    // one batch per table fits: the first run deletes 500 keys and says it is not done
    const first = await purgeExpired(db, new Date(), budgetOf(RETENTION_RULES.length))
    expect(reportOf(first, 'idempotency_keys')).toMatchObject({ rows: 500, batches: 1, done: false })
    expect(await keysOf(userId)).toBe(700)
    const second = await purgeExpired(db, new Date())
    expect(reportOf(second, 'idempotency_keys')).toMatchObject({ rows: 700, done: true })
    expect(await keysOf(userId)).toBe(0)
  })
})

describe('the money record', () => {
  it('is never touched: the ledger, lots, purchases and paid payments are the same after a sweep ten years ahead', async () => {
    // some money of every kind: bought and rented episodes, expiring lots, a paid and a refunded payment
    const reader = await newReader()
    await give(reader.id, 'COIN', 20)
    await give(reader.id, 'BONUS', 5, 1)
    const s = await newSeries({ episodes: 3 })
    expect((await buy(reader, { kind: 'RENT', episodeIds: [s.episodeIds[1]] })).status).toBe(200)
    expect((await buy(reader, { kind: 'POSSESSION', episodeIds: [s.episodeIds[2]] })).status).toBe(200)
    for (const state of ['PAID', 'REFUNDED'])
      await readerRows.run(
        reader.id,
        `INSERT INTO payments (id, user_id, state, provider, amount, currency, idempotency_key, created_at, paid_at) VALUES (?, ?, ?, 'sandbox', 1499, 'EUR', ?, '2020-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z')`,
        `${tag()}-${state}`,
        reader.id,
        state,
        `${tag()}-k`,
      )
    // every reader's money rows (one call per reader and table), in the order of one table: by id
    const everyReaders = async (sql: string, order: string) => {
      const users = await db.all<{ id: number }>(`SELECT id FROM users ORDER BY id`)
      const rows = (await Promise.all(users.map(({ id }) => readerRows.all<Record<string, number | string>>(id, sql, id)))).flat()
      return rows.sort((a, b) => (a[order]! < b[order]! ? -1 : a[order]! > b[order]! ? 1 : 0))
    }
    const money = async () => ({
      ledger: await everyReaders(`SELECT * FROM coin_ledger WHERE user_id = ?`, 'id'),
      lots: await everyReaders(`SELECT * FROM coin_lots WHERE user_id = ?`, 'id'),
      purchases: await everyReaders(`SELECT * FROM purchases WHERE user_id = ?`, 'id'),
      paid: await everyReaders(`SELECT * FROM payments WHERE user_id = ? AND state NOT IN ('UNPAID', 'CANCELLED')`, 'id'),
      reversals: await everyReaders(`SELECT * FROM payment_reversals WHERE user_id = ?`, 'payment_id'),
      conversions: await db.all(`SELECT * FROM conversion_events ORDER BY id`),
    })
    const before = await money()
    expect(before.paid.length).toBeGreaterThanOrEqual(2)
    const later = new Date(Date.now() + 3650 * DAY_MS)
    const report = await purgeExpired(db, later)
    expect(report.every((r) => r.done)).toBe(true)
    // the reader's object, woken ten years on: its lots expire (EXPIRE rows added), nothing of the record goes
    await readerObject(reader.id).wake(reader.id, later.toISOString())
    const after = await money()
    expect({ ...after, ledger: after.ledger.filter((r) => r.kind !== 'EXPIRE'), lots: after.lots.map((r) => r.id) }).toEqual({
      ...before,
      lots: before.lots.map((r) => r.id),
    })
  })
})

describe('expiry sweep (expireLots)', () => {
  /**
   * `n` lots of 1 coin each of a fresh reader, expired a minute ago, each with its CHARGE ledger row, still in D1 (a
   * reader not moved yet: the shared sweep's; the objects run the same function on their own rows)
   */
  async function expiredLots(n: number) {
    const reader = await newReader()
    const expiresAt = at(new Date(), -60_000)
    await db.batch([
      {
        sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source) SELECT ?, 'FREE_COIN', 1, 1, ?, 'EVENT' FROM json_each(?)`,
        params: [reader.id, expiresAt, JSON.stringify(oneTo(n))],
      },
      {
        sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount) SELECT user_id, 'CHARGE', id, type, source, amount FROM coin_lots WHERE user_id = ?`,
        params: [reader.id],
      },
    ])
    return reader.id
  }
  const stateOf = async (userId: number) =>
    db.first<{ left: number; expired: number; ledger: number }>(
      `SELECT (SELECT coalesce(sum(remaining), 0) FROM coin_lots WHERE user_id = ?1) AS left,
              (SELECT count(*) FROM coin_ledger WHERE user_id = ?1 AND kind = 'EXPIRE') AS expired,
              (SELECT sum(amount) FROM coin_ledger WHERE user_id = ?1) AS ledger`,
      userId,
    )

  it('empties more than 500 expired lots in one run, 500 per round, each with its EXPIRE row', async () => {
    const userId = await expiredLots(1200)
    const result = await expireLots(db)
    expect(result.done).toBe(true)
    expect(result.lots).toBeGreaterThanOrEqual(1200) // and any other test's expired lots
    expect(await stateOf(userId)).toEqual({ left: 0, expired: 1200, ledger: 0 })
    expect(await expireLots(db)).toEqual({ lots: 0, coins: 0, done: true })
  })

  it('leaves the rest to the next run once its budget is spent', async () => {
    await expireLots(db) // nothing else expired is left
    const userId = await expiredLots(700)
    expect(await expireLots(db, new Date(), 500, budgetOf(1))).toEqual({ lots: 500, coins: 500, done: false })
    expect(await stateOf(userId)).toEqual({ left: 200, expired: 500, ledger: 200 })
    expect(await expireLots(db)).toEqual({ lots: 200, coins: 200, done: true })
    expect(await stateOf(userId)).toEqual({ left: 0, expired: 700, ledger: 0 })
  })
})
