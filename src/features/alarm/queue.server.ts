/**
 * The alarm queue's consumer (issue 13 point 3, docs/ARCHITECTURE.md "Alarms"; wrangler.jsonc `queues`): fan-out
 * batches of a published episode or an operator's notice, the push of one alarm, and a reader's data export (issue 37
 * point 6). Every job is safe to run twice
 * (a message may be delivered again): a reader's object keeps one alarm per event, a push is claimed by one
 * conditional UPDATE of the alarm's `pushed_at` in its reader's object. A job that throws, or a push no push service
 * took, is retried by the queue with a growing delay; after `max_retries` the message goes to the dead-letter queue
 * and the operator is alerted (`retryLater`).
 */
import { edition, messages } from 'virtual:edition'
import type { Db } from '../../lib/server/db.ts'
import { createTranslator } from '../../lib/i18n/i18n.ts'
import { deliverPush, type PushEnv } from '../push/push.server.ts'
import { AlarmJob, FANOUT_SIZE, alarmView, ruleOfText, type FanoutSize } from './alarm.ts'
import { QUEUE_MAX_DELAY_S } from '../../lib/queue.ts'
import { retryLater } from '../operator/alerts.server.ts'
import { withReader } from '../reader/stub.server.ts'
import { runFanout, type AlarmQueue } from './alarm.server.ts'
import { prepareExport } from '../export/export.server.ts'
import { formatDateTime } from '../../lib/i18n/dates.ts'

export type AlarmQueueEnv = PushEnv & { ALARMS: AlarmQueue; MEDIA: R2Bucket }

const t = createTranslator(edition, messages)
const exportContext = { t, siteUrl: edition.siteUrl, formatDate: (iso: string) => formatDateTime(iso, edition) }

/** Handles one batch; each message is acknowledged or retried on its own (a fan-out message of `size`). */
export async function consumeAlarms(
  batch: MessageBatch<unknown>,
  env: AlarmQueueEnv,
  db: Db,
  now = () => new Date(),
  size: FanoutSize = FANOUT_SIZE,
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      const job = AlarmJob.safeParse(message.body)
      if (!job.success) {
        // a message no version of this worker writes: retrying cannot help
        console.error(JSON.stringify({ event: 'alarm.job.invalid', id: message.id }))
        return message.ack()
      }
      try {
        const done =
          job.data.kind === 'push'
            ? await pushAlarm(db, env, job.data, now())
            : job.data.kind === 'export'
              ? (await prepareExport(db, env.MEDIA, job.data.exportId, exportContext, now()), true)
              : (await runFanout(db, env.ALARMS, job.data, undefined, size), true)
        if (done) message.ack()
        else await retryLater(db, message, `alarm push ${job.data.kind === 'push' ? job.data.alarmId : ''}: no push service took it`)
      } catch (e) {
        console.error(
          JSON.stringify({ event: 'alarm.job.failed', id: message.id, kind: job.data.kind, attempts: message.attempts, error: String(e) }),
        )
        await retryLater(db, message, `alarm ${job.data.kind} job: ${String(e)}`)
      }
    }),
  )
}

/**
 * Pushes one alarm to the reader's browsers (deliverPush honours their settings). Answers false when it must be
 * retried: no push service took it. At night (without night push) the claim is given back and the job comes again
 * at 08:00; an alarm read in the meantime is not pushed. A job queued before the alarms moved into the readers' objects
 * names no reader: it is found by the alarm's D1 row, whose id the object keeps when it takes the row.
 */
async function pushAlarm(db: Db, env: AlarmQueueEnv, job: Extract<AlarmJob, { kind: 'push' }>, now: Date): Promise<boolean> {
  const at = now.toISOString()
  const { alarmId } = job
  const readerId =
    job.readerId ?? (await db.first<{ userId: number }>(`SELECT user_id AS userId FROM alarms WHERE id = ?`, alarmId))?.userId
  if (readerId === undefined) return true
  const claim = (release: boolean) => withReader(readerId, (reader) => reader.claimPush(readerId, alarmId, at, release))
  const row = await claim(false)
  const kind = row && ruleOfText(row.title)?.push
  if (!row || !kind) return true
  const view = alarmView(row, t, edition)
  const outcome = await deliverPush(env, db, readerId, { kind, title: edition.siteName, body: view.text, url: view.link ?? '/alarm' }, now)
  if (outcome.status === 'held') {
    await claim(true)
    const wait = Math.ceil((Date.parse(outcome.holdUntil) - now.getTime()) / 1000)
    await env.ALARMS.send(
      { kind: 'push', alarmId, readerId },
      { contentType: 'json', delaySeconds: Math.min(QUEUE_MAX_DELAY_S, Math.max(0, wait)) },
    )
    return true
  }
  if (outcome.status === 'sent' && outcome.delivered === 0 && outcome.failed.length > 0) {
    await claim(true)
    return false
  }
  return true
}
