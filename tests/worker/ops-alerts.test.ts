/**
 * Alerts to the operator (issue 39 point 4): one occurrence of a kind of trouble counted per UTC hour in one
 * conditional statement, one mail to the edition's `mail.alertsTo` when the hour's count reaches the kind's threshold
 * (40 at once: one mail), from each source — a webhook with a bad signature, a queue message past its last retry, a
 * failed cron sweep, server errors — and `GET /api/ops/alerts` listing them. Real D1 and the local outbox.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { app, db, read } from './purchase.helpers.ts'
import { expectHandled, frEdition, request } from './app.ts'
import { OPS } from './ops.helpers.ts'
import { raiseAlert, retryLater, runSweeps } from '../../src/features/operator/alerts.server.ts'
import { ALERT_KINDS, alertHour } from '../../src/features/operator/alerts.ts'
import { QUEUE_MAX_RETRIES } from '../../src/lib/queue.ts'

const alertsTo = frEdition.mail!.alertsTo
/** The alert mails of one kind and hour in the outbox. */
const mails = (kind: string, hour: string) =>
  db.all<{ subject: string; body: string }>(
    `SELECT subject, body FROM outbox WHERE template = 'ops-alert' AND recipient = ? AND json_extract(meta, '$.kind') = ? AND json_extract(meta, '$.hour') = ?`,
    alertsTo,
    kind,
    hour,
  )
const row = (kind: string, hour: string) =>
  db.first<{ count: number; first_detail: string; last_detail: string; mailed_at: string | null }>(
    `SELECT count, first_detail, last_detail, mailed_at FROM ops_alerts WHERE kind = ? AND hour = ?`,
    kind,
    hour,
  )
const list = async (query = '') => {
  const res = await request(app, `/api/ops/alerts${query}`, OPS)
  return { status: res.status, body: await read(res) }
}

describe('alerts to the operator', () => {
  it('40 occurrences at once in one hour: counted 40 times, one mail; the next hour mails again', async () => {
    const at = new Date('2031-02-03T04:05:06.000Z')
    await Promise.all(Array.from({ length: 40 }, (_, i) => raiseAlert(db, 'cron', `sweep ${i} failed`, at)))
    const hour = alertHour(at)
    expect(await row('cron', hour)).toMatchObject({ count: 40, mailed_at: expect.any(String) })
    const sent = await mails('cron', hour)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.subject).toBe(`[${frEdition.siteName} fr] cron: a cron sweep failed`)
    expect(sent[0]!.body).toMatch(
      /^a cron sweep failed \(first in the hour 2031-02-03T04:00 UTC\)\.\n\nFirst: sweep \d+ failed\nLatest: sweep \d+ failed/,
    )

    const next = new Date('2031-02-03T05:00:00.000Z')
    await raiseAlert(db, 'cron', 'again', next)
    expect(await mails('cron', alertHour(next))).toHaveLength(1)
  })

  it('server errors mail at the threshold of the hour, once', async () => {
    const at = new Date('2031-02-04T10:00:00.000Z')
    const hour = alertHour(at)
    const threshold = ALERT_KINDS.errors.threshold
    for (let i = 1; i < threshold; i++) await raiseAlert(db, 'errors', `GET /x: UNKNOWN ${i}`, at)
    expect(await mails('errors', hour)).toEqual([])
    expect(await row('errors', hour)).toMatchObject({ count: threshold - 1, mailed_at: null })
    await Promise.all(Array.from({ length: 40 }, () => raiseAlert(db, 'errors', 'GET /x: UNKNOWN', at)))
    expect(await mails('errors', hour)).toHaveLength(1)
    expect(await row('errors', hour)).toMatchObject({ count: threshold + 39, first_detail: 'GET /x: UNKNOWN 1' })
  })

  it('a webhook with a bad signature is refused and alerts; one not known yet is a race and does not', async () => {
    const hour = alertHour(new Date())
    const before = (await row('webhook', hour))?.count ?? 0
    const res = await request(app, '/api/v1/payment/webhook/sandbox', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': 't=1,v1=00' },
      body: JSON.stringify({ id: 'evt_forged', type: 'payment.succeeded', data: { paymentId: 'pay_forged' } }),
    })
    expect(res.status).toBe(400)
    expect(await read(res)).toMatchObject({ code: 'INVALID_PARAMETER' })
    const after = await row('webhook', hour)
    expect(after?.count).toBe(before + 1)
    expect(after?.last_detail).toBe('sandbox: signature refused')
    expect(await mails('webhook', hour)).toHaveLength(1) // the hour's first, from this test or an earlier one
  })

  it('a queue message that fails its last retry alerts; earlier retries do not', async () => {
    const message = (attempts: number) => {
      const calls: unknown[] = []
      return { calls, message: { id: `m${attempts}`, attempts, retry: (o: unknown) => calls.push(o) } as unknown as Message<unknown> }
    }
    const hour = alertHour(new Date())
    const before = (await row('dead-letter', hour))?.count ?? 0
    const early = message(QUEUE_MAX_RETRIES)
    await retryLater(db, early.message, 'alarm push 7: no push service took it')
    expect(early.calls).toHaveLength(1)
    expect((await row('dead-letter', hour))?.count ?? 0).toBe(before)
    const last = message(QUEUE_MAX_RETRIES + 1)
    await retryLater(db, last.message, 'alarm push 7: no push service took it')
    expect(last.calls).toHaveLength(1)
    expect(await row('dead-letter', hour)).toMatchObject({
      count: before + 1,
      last_detail: `alarm push 7: no push service took it (message m${QUEUE_MAX_RETRIES + 1}, ${QUEUE_MAX_RETRIES + 1} tries)`,
    })
  })

  it('a failed cron sweep alerts with its name, and the other sweeps still run', async () => {
    const hour = alertHour(new Date())
    const before = (await row('cron', hour))?.count ?? 0
    let ran = 0
    const failed = await runSweeps(db, {
      first: async () => ran++,
      broken: () => Promise.reject(new Error('D1 went away')),
      last: async () => ran++,
    })
    expect([failed, ran]).toEqual([['broken'], 2])
    expect(await row('cron', hour)).toMatchObject({ count: before + 1, last_detail: 'broken: Error: D1 went away' })
  })

  it('GET /api/ops/alerts lists the hours of the last days, newest first; a bad query is refused', async () => {
    const at = new Date(Date.now() - 2 * 86_400_000)
    await raiseAlert(db, 'dead-letter', 'two days ago', at)
    const { status, body } = await list('?days=3')
    expect(status).toBe(200)
    expect(body.data.alertsTo).toBe(alertsTo)
    expect(body.data.timeZone).toBe(frEdition.timeZone)
    const hours = body.data.items.map((a: { hour: string }) => a.hour)
    expect(hours).toEqual([...hours].sort().reverse())
    expect(body.data.items).toContainEqual(
      expect.objectContaining({ kind: 'dead-letter', hour: alertHour(at), firstDetail: 'two days ago' }),
    )
    expect((await list('?days=1')).body.data.items.map((a: { hour: string }) => a.hour)).not.toContain(alertHour(at))
    expect((await request(app, '/api/ops/alerts')).status).toBe(401)
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 12 }).filter((d) => !/^[1-9]\d*$/.test(d) || Number(d) > 30),
        async (days) => {
          const res = await request(app, `/api/ops/alerts?${new URLSearchParams({ days })}`, OPS)
          expect(res.status).toBe(400)
          await expectHandled(res)
        },
      ),
      { numRuns: 1000 },
    )
  }, 120_000)
})
