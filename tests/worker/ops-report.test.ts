/**
 * The daily report's figures (issue 39 point 3): what the worker counts as it happens — an account created, a top-up
 * paid (once, whatever the webhook's replays), episodes sold with the coins spent (once per Idempotency-Key), a refund,
 * trouble — each one Analytics Engine data point and, in this local run, added to its UTC day's sums in D1, which
 * `GET /api/ops/report` answers. Real D1, the reader's object and the sandbox provider's signed webhooks.
 */
import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { app, db, newReader, newSeries, read } from './purchase.helpers.ts'
import { request } from './app.ts'
import { OPS } from './ops.helpers.ts'
import { newProduct, paymentFor, postWebhook, signedEvent } from './payment.helpers.ts'
import { purchase, refund } from './money.helpers.ts'
import { raiseAlert } from '../../src/features/operator/alerts.server.ts'
import { countMetric } from '../../src/lib/metrics/metrics.server.ts'
import type { ReportRow } from '../../src/lib/metrics/metrics.ts'
import { metricSums, metricsAddedBy } from './metrics.helpers.ts'

const today = () => new Date().toISOString().slice(0, 10)

/** The Analytics Engine binding replaced by a recorder for one test (the local simulator stores nothing to read). */
const points: AnalyticsEngineDataPoint[] = []
const binding = env.METRICS
afterEach(() => {
  ;(env as { METRICS?: AnalyticsEngineDataset }).METRICS = binding
  points.length = 0
})
const recordPoints = () => {
  ;(env as { METRICS?: AnalyticsEngineDataset }).METRICS = { writeDataPoint: (p?: AnalyticsEngineDataPoint) => void points.push(p!) }
}

const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  request(app, path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

describe('the daily report', () => {
  it('counts an account, an active reader, a top-up once whatever its replays, a sale once per key with its coins, a refund and trouble', async () => {
    recordPoints()
    const added = await metricsAddedBy(async () => {
      const email = `report-${Date.now()}@example.com`
      const signUp = await json('/api/v1/auth/sign-up', {
        email,
        password: 'Newbie-2026',
        passwordConfirm: 'Newbie-2026',
        agreeTerms: true,
      })
      expect(signUp.status).toBe(200)

      const reader = await newReader()
      const product = await newProduct({ coins: 100, bonus: 0, price: 499, currency: 'EUR' })
      const paid = await paymentFor(reader, product)
      const event = await signedEvent(paid)
      for (let i = 0; i < 3; i++) expect((await postWebhook(event)).status).toBe(200)
      expect((await postWebhook(await signedEvent(paid))).status).toBe(200) // another event for a payment already paid

      const { episodeIds } = await newSeries({ episodes: 2, priceBuy: 3 })
      const key = crypto.randomUUID()
      expect((await purchase(reader, 'POSSESSION', episodeIds, key)).status).toBe(200)
      expect((await purchase(reader, 'POSSESSION', episodeIds, key)).status).toBe(200) // the stored answer

      const unspent = await paymentFor(reader, await newProduct({ coins: 50, bonus: 0, price: 299, currency: 'EUR' }))
      expect((await postWebhook(await signedEvent(unspent))).status).toBe(200)
      expect((await refund(reader, unspent)).status).toBe(200)

      await raiseAlert(db, 'cron', 'report test: a sweep failed')
    })
    expect(added).toEqual({
      'signup email': { count: 1, total: 0 },
      'topup EUR': { count: 2, total: 798 },
      'purchase POSSESSION': { count: 2, total: 6 },
      'refund EUR': { count: 1, total: 299 },
      'alert cron': { count: 1, total: 0 },
      'active ': { count: 1, total: 0 }, // the reader, at their first request of the day
    })
    expect(points.map((p) => p.blobs!.slice(1).join(' ')).sort()).toEqual(
      ['active ', 'alert cron', 'purchase POSSESSION', 'refund EUR', 'signup email', 'topup EUR', 'topup EUR'].sort(),
    )
    expect(points.find((p) => p.blobs![1] === 'purchase')).toEqual({
      indexes: ['fr'],
      blobs: ['fr', 'purchase', 'POSSESSION'],
      doubles: [2, 6],
    })

    const res = await request(app, '/api/ops/report?days=1', OPS)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-edition-time-zone')).toBe('Europe/Paris') // the CLI prints times in it
    const items = (await read(res)).data.items as ReportRow[]
    const now = await metricSums()
    expect(items.every((r) => r.day === today() && r.edition === 'fr')).toBe(true)
    expect(Object.fromEntries(items.map((r) => [`${r.name} ${r.key}`, { count: r.count, total: r.total }]))).toEqual(now)
  })

  it('a signed-in reader is counted active once a day, whatever their requests: 40 at once, then more', async () => {
    const readers = [await newReader(), await newReader()]
    expect(
      await metricsAddedBy(async () => {
        const answers = await Promise.all(
          readers.flatMap((r) => Array.from({ length: 40 }, () => request(app, '/api/v1/coin', { headers: r.headers }))),
        )
        expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200))
        for (const r of readers) expect((await request(app, '/api/v1/user/me', { headers: r.headers })).status).toBe(200)
      }),
    ).toEqual({ 'active ': { count: 2, total: 0 } })
  })

  it('40 figures counted at once add up to 40', async () => {
    const at = new Date('2031-05-06T07:08:09.000Z')
    await Promise.all(Array.from({ length: 40 }, () => countMetric({ name: 'purchase', key: 'RENT', total: 3 }, at)))
    expect(await metricSums(at)).toEqual({ 'purchase RENT': { count: 40, total: 120 } })
  })

  it('GET /api/ops/report: operators only; a `days` other than 1 to 90 is INVALID_PARAMETER (1,000 values), never a 5xx', async () => {
    expect((await request(app, '/api/ops/report')).status).toBe(401)
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.integer({ min: 91 }).map(String), fc.integer({ max: 0 }).map(String), fc.double().map(String)),
        async (days) => {
          const res = await request(app, `/api/ops/report?days=${encodeURIComponent(days)}`, OPS)
          const good = /^[1-9]\d*$/.test(days) && Number(days) <= 90
          expect(res.status, days).toBe(good ? 200 : 400)
          if (good) await res.body?.cancel()
          else expect((await read(res)).code).toBe('INVALID_PARAMETER')
        },
      ),
      { numRuns: 1000 },
    )
  }, 120_000)
})
