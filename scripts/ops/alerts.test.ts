/**
 * `npm run ops -- alerts` (issue 39 point 4) through the command line, against the tiny HTTP server standing in for the
 * operator API (fake-api.ts): the request sent, the hours printed in the edition's time zone with their counts and
 * mail state, a bad --days refused with nothing sent. The API itself runs on real D1 in tests/worker/ops-alerts.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { expectRefusedUnsent, REFUSAL_TEST_TIMEOUT_MS, fakeApi, LOCAL_OPS_TOKEN, success, type FakeApi } from './fake-api.ts'

let api: FakeApi
beforeAll(async () => {
  api = await fakeApi()
})
afterAll(() => api.close())
beforeEach(() => api.reset())

const items = [
  {
    kind: 'errors',
    hour: '2026-12-02T09',
    count: 23,
    firstDetail: 'GET /api/v1/coin: UNKNOWN Error: D1_ERROR',
    lastDetail: 'POST /api/v1/purchase: UNKNOWN Error: D1_ERROR',
    lastAt: '2026-12-02T09:41:00.000Z',
    mailedAt: '2026-12-02T09:30:00.000Z',
  },
  {
    kind: 'webhook',
    hour: '2026-12-01T22',
    count: 1,
    firstDetail: 'stripe: signature refused',
    lastDetail: 'stripe: signature refused',
    lastAt: '2026-12-01T22:05:00.000Z',
    mailedAt: null,
  },
  {
    kind: 'errors',
    hour: '2026-12-01T20',
    count: 3,
    firstDetail: 'GET /: UNKNOWN',
    lastDetail: 'GET /: UNKNOWN',
    lastAt: '2026-12-01T20:10:00.000Z',
    mailedAt: null,
  },
]

describe('npm run ops -- alerts', () => {
  it('GET /api/ops/alerts?days=N: each hour with its kind, count, details and whether the operator was mailed', async () => {
    api.reply = () => success({ items, alertsTo: 'ops@fr.bomtoon.example', timeZone: 'Europe/Paris' })
    const r = await api.ops(['alerts', '--days', '3'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('3 hours with trouble in the last 3 days (http://127.0.0.1:')
    expect(r.stdout).toContain('; mails to ops@fr.bomtoon.example); times in Europe/Paris:')
    expect(r.stdout).toContain('2026-12-02 10:00  errors × 23  (mailed 2026-12-02 10:30)')
    expect(r.stdout).toContain('  first: GET /api/v1/coin: UNKNOWN Error: D1_ERROR')
    expect(r.stdout).toContain('  latest (2026-12-02 10:41): POST /api/v1/purchase: UNKNOWN Error: D1_ERROR')
    expect(r.stdout).toContain('2026-12-01 23:00  webhook × 1  (not mailed)')
    expect(r.stdout).toContain('2026-12-01 21:00  errors × 3  (below the mail threshold)')
    expect(api.seen.map((s) => [s.method, s.path, s.authorization])).toEqual([
      ['GET', '/api/ops/alerts?days=3', `Bearer ${LOCAL_OPS_TOKEN}`],
    ])
  })

  it('an edition without mail says so; no alert says none; the default is 7 days', async () => {
    api.reply = () => success({ items: [], alertsTo: null, timeZone: 'Europe/Berlin' })
    const r = await api.ops(['alerts'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('0 hours with trouble in the last 7 days')
    expect(r.stdout).toContain('this edition sends no mail')
    expect(r.stdout).toContain('  (none)')
    expect(api.seen.map((s) => s.path)).toEqual(['/api/ops/alerts?days=7'])
  })

  it(
    'a bad --days is refused with nothing sent',
    async () => {
      await expectRefusedUnsent(api, [
        [['alerts', '--days', '0'], /--days must be a whole number from 1 to 30/],
        [['alerts', '--days', '31'], /--days must be a whole number from 1 to 30/],
        [['alerts', '--days', 'week'], /--days must be a whole number from 1 to 30/],
        [['alerts', '--kind', 'cron'], /Unknown option '--kind'/],
      ])
    },
    REFUSAL_TEST_TIMEOUT_MS,
  )
})
