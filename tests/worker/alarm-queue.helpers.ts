/**
 * The alarm queue in the worker tests: `localQueue()` records what the code sends (the producer's `send` and
 * `sendBatch`, delays included) and `drain` hands due messages to the real consumer (consumeAlarms) in batches built
 * by the Workers test runtime (createMessageBatch), reading each message's ack or retry back with getQueueResult. A
 * retried message comes again after its delay with one more attempt; after MAX_RETRIES it lands in `dead`, as
 * wrangler.jsonc's dead-letter queue would take it. A fan-out message here writes `FANOUT` (2 batches of 25 readers):
 * the hand-on from message to message is met past 50 readers, not 2,000, each reader's object costing ~35 ms to make.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { expect } from 'vitest'
import type { AlarmJob, FanoutSize } from '../../src/features/alarm/alarm.ts'
import type { AlarmQueue } from '../../src/features/alarm/alarm.server.ts'
import { consumeAlarms } from '../../src/features/alarm/queue.server.ts'
import { db } from './comment.helpers.ts'

/** wrangler.jsonc `queues.consumers`: max_batch_size and max_retries. */
const BATCH = 50
const MAX_RETRIES = 5
export const FANOUT: FanoutSize = { batch: 25, batches: 2 }

type Pending = { id: string; body: unknown; attempts: number; due: number }

export function localQueue(start: Date) {
  let clock = start.getTime()
  let seq = 0
  const pending: Pending[] = []
  /** Every message sent, in order, with its delay. */
  const sent: { body: AlarmJob; delaySeconds: number }[] = []
  const dead: Pending[] = []
  const put = (body: AlarmJob, delaySeconds = 0) => {
    sent.push({ body, delaySeconds })
    pending.push({ id: `m${++seq}`, body, attempts: 1, due: clock + delaySeconds * 1000 })
  }
  const queue: AlarmQueue = {
    send: async (body, options) => put(body, options?.delaySeconds),
    sendBatch: async (messages) => {
      for (const m of messages) put(m.body, m.delaySeconds)
    },
  }
  /**
   * Delivers every message due by `until` (the clock moves to each batch's due time), until none is due; answers
   * the number of batches.
   */
  async function drain(until = new Date(clock)): Promise<number> {
    let batches = 0
    for (;;) {
      const due = pending.filter((p) => p.due <= until.getTime()).sort((a, b) => a.due - b.due)
      if (due.length === 0) break
      const take = due.slice(0, BATCH)
      clock = Math.max(clock, take.at(-1)!.due)
      for (const p of take) pending.splice(pending.indexOf(p), 1)
      const batch = createMessageBatch<unknown>(
        'webtoon-alarms-test',
        take.map((p) => ({ ...p, timestamp: clock })),
      )
      const ctx = createExecutionContext()
      // the test runtime's result leaves the retry delay out: each message's retry() notes it on the way
      const delays = new Map<string, number>()
      for (const m of batch.messages) {
        const retry = m.retry.bind(m)
        m.retry = (options) => (delays.set(m.id, options?.delaySeconds ?? 0), retry(options))
      }
      await consumeAlarms(batch, { ...env, ALARMS: queue }, db, () => new Date(clock), FANOUT)
      const result = await getQueueResult(batch, ctx)
      expect(result.ackAll).toBe(false)
      for (const p of take) {
        const retry = result.retryMessages.find((r) => r.msgId === p.id)
        if (!retry) {
          expect(result.explicitAcks).toContain(p.id)
          continue
        }
        if (p.attempts >= MAX_RETRIES + 1) dead.push(p)
        else pending.push({ ...p, attempts: p.attempts + 1, due: clock + (delays.get(p.id) ?? 0) * 1000 })
      }
      batches++
    }
    clock = Math.max(clock, until.getTime())
    return batches
  }
  return { queue, sent, dead, drain, pending: () => pending.length }
}
