/**
 * `npm run ops -- report` (issue 39 point 3) through the command line: from a local run's operator API (the tiny HTTP
 * server of fake-api.ts) and, for a deployed edition, from the same server standing in for Cloudflare's Analytics Engine
 * SQL API (CLOUDFLARE_API_BASE): the request sent, the table printed, and a bad command line or missing credentials
 * refused with nothing sent. What the worker counts, and the local route, run on real D1 in tests/worker/ops-report.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { expectRefusedUnsent, REFUSAL_TEST_TIMEOUT_MS, fakeApi, json, LOCAL_OPS_TOKEN, outward, success, type FakeApi } from './fake-api.ts'

let api: FakeApi
beforeAll(async () => {
  api = await fakeApi()
})
afterAll(() => api.close())
beforeEach(() => api.reset())

const today = new Date().toISOString().slice(0, 10)
const rows = [
  { day: today, edition: 'fr', name: 'purchase', key: 'RENT', count: 12, total: 36 },
  { day: today, edition: 'fr', name: 'topup', key: 'EUR', count: 2, total: 998 },
  { day: '2026-12-01', edition: 'fr', name: 'alert', key: 'cron', count: 1, total: 0 },
]

describe('npm run ops -- report', () => {
  it('a local run: GET /api/ops/report?days=N, one line per day, figure and key', async () => {
    api.reply = () => success({ items: rows })
    const r = await api.ops(['report', '--days', '3'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain(`Daily report of the last 3 UTC days since `)
    expect(r.stdout).toContain(`(the local run's sums at http://127.0.0.1:${api.port})`)
    const lines = r.stdout.split('\n')
    expect(lines.find((l) => l.includes('episodes sold for coins'))).toMatch(
      new RegExp(`${today}\\s+fr\\s+episodes sold for coins\\s+kind RENT\\s+12\\s+36 coins spent`),
    )
    expect(lines.find((l) => l.includes('top-ups paid'))).toMatch(/top-ups paid\s+currency EUR\s+2\s+€9\.98$/)
    expect(lines.find((l) => l.includes('trouble'))).toMatch(/2026-12-01\s+fr\s+trouble\s+kind cron\s+1$/)
    expect(api.seen.map((s) => [s.method, s.path, s.authorization])).toEqual([
      ['GET', '/api/ops/report?days=3', `Bearer ${LOCAL_OPS_TOKEN}`],
    ])
  })

  it.skipIf(!outward)(
    'a deployed edition: the query goes to the Analytics Engine SQL API with the Cloudflare token, not to the edition',
    async () => {
      api.reply = (path) => (path.endsWith('/analytics_engine/sql') ? json(200, { meta: [], data: rows, rows: 3 }) : json(404, {}))
      const r = await api.ops(['report'], {
        OPS_URL: `http://${outward}:${api.port}`,
        OPS_TOKEN: 'x'.repeat(40),
        CLOUDFLARE_ACCOUNT_ID: 'acc123',
        CLOUDFLARE_API_TOKEN: 'cf-token',
        CLOUDFLARE_API_BASE: `http://127.0.0.1:${api.port}/client/v4`,
      })
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toContain('Daily report of the last 7 UTC days since ')
      expect(r.stdout).toContain('(Analytics Engine, dataset webtoon_metrics)')
      expect(r.stdout).toMatch(/episodes sold for coins\s+kind RENT\s+12\s+36 coins spent/)
      expect(api.seen).toHaveLength(1)
      const [seen] = api.seen
      expect([seen!.method, seen!.path, seen!.authorization]).toEqual([
        'POST',
        '/client/v4/accounts/acc123/analytics_engine/sql',
        'Bearer cf-token',
      ])
      const sql = String(seen!.body)
      expect(sql).toMatch(/FROM webtoon_metrics\n/)
      expect(sql).toContain(`WHERE timestamp >= toDateTime('${new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10)} 00:00:00')`)
      expect(sql).toContain('SUM(_sample_interval * double1) AS count')
      expect(sql).toMatch(/FORMAT JSON$/)
    },
  )

  it.skipIf(!outward)('a refusal of the SQL API is one line', async () => {
    api.reply = () => ({ status: 403, body: 'Authentication error' })
    const r = await api.ops(['report', '--days', '1'], {
      OPS_URL: `http://${outward}:${api.port}`,
      OPS_TOKEN: 'x'.repeat(40),
      CLOUDFLARE_ACCOUNT_ID: 'acc123',
      CLOUDFLARE_API_TOKEN: 'wrong',
      CLOUDFLARE_API_BASE: `http://127.0.0.1:${api.port}/client/v4`,
    })
    expect(r.code).not.toBe(0)
    expect(r.stderr.trim()).toBe('ops: HTTP 403 from the Analytics Engine SQL API: Authentication error')
  })

  it(
    'a bad --days, or a deployed edition without Cloudflare credentials, is refused with nothing sent',
    async () => {
      await expectRefusedUnsent(api, [
        [['report', '--days', '0'], /--days must be a whole number from 1 to 90/],
        [['report', '--days', '91'], /--days must be a whole number from 1 to 90/],
        [['report', '--days', 'week'], /--days must be a whole number from 1 to 90/],
      ])
      if (!outward) return
      const r = await api.ops(['report'], { OPS_URL: `http://${outward}:${api.port}`, OPS_TOKEN: 'x'.repeat(40) })
      expect(r.code).toBe(2)
      expect(r.stderr.split('\n')[0]).toMatch(/set CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN/)
      expect(api.seen).toEqual([])
    },
    REFUSAL_TEST_TIMEOUT_MS,
  )
})
