/**
 * The alarm queue's consumer (issue 13 point 3, docs/ARCHITECTURE.md "Alarms"; wrangler.jsonc `queues`): fan-out
 * batches of a published episode or an operator's notice, and the push of one alarm. Every job is safe to run twice
 * (a message may be delivered again): a fan-out skips readers who have the alarm, a push is claimed by one
 * conditional UPDATE of `alarms.pushed_at`. A job that throws, or a push no push service took, is retried by the
 * queue with a growing delay; after `max_retries` the message goes to the dead-letter queue.
 */
import { edition, messages } from 'virtual:edition'
import type { Db } from '../../lib/server/db.ts'
import { createTranslator } from '../../lib/i18n/i18n.ts'
import { deliverPush, type PushEnv } from '../push/push.server.ts'
import { AlarmJob, QUEUE_MAX_DELAY_S, alarmView, retryDelaySeconds, ruleOfText, type AlarmRow } from './alarm.ts'
import { runFanout, type AlarmQueue } from './alarm.server.ts'

export type AlarmQueueEnv = PushEnv & { ALARMS: AlarmQueue }

const t = createTranslator(edition.locale, messages)

/** Handles one batch; each message is acknowledged or retried on its own. */
export async function consumeAlarms(batch: MessageBatch<unknown>, env: AlarmQueueEnv, db: Db, now = () => new Date()): Promise<void> {
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
          job.data.kind === 'push' ? await pushAlarm(db, env, job.data.alarmId, now()) : (await runFanout(db, env.ALARMS, job.data), true)
        if (done) message.ack()
        else message.retry({ delaySeconds: retryDelaySeconds(message.attempts) })
      } catch (e) {
        console.error(
          JSON.stringify({ event: 'alarm.job.failed', id: message.id, kind: job.data.kind, attempts: message.attempts, error: String(e) }),
        )
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts) })
      }
    }),
  )
}

/**
 * Pushes one alarm to the reader's browsers (deliverPush honours their settings). Answers false when it must be
 * retried: no push service took it. At night (without night push) the claim is given back and the job comes again
 * at 08:00; an alarm read in the meantime is not pushed.
 */
async function pushAlarm(db: Db, env: AlarmQueueEnv, alarmId: number, now: Date): Promise<boolean> {
  const at = now.toISOString()
  const row = await db.first<AlarmRow & { userId: number }>(
    `UPDATE alarms SET pushed_at = ?2 WHERE id = ?1 AND pushed_at IS NULL AND read_at IS NULL
      RETURNING id, user_id AS userId, kind, title, body, link, read_at AS readAt, created_at AS createdAt`,
    alarmId,
    at,
  )
  const kind = row && ruleOfText(row.title)?.push
  if (!row || !kind) return true
  const view = alarmView(row, t, edition)
  const outcome = await deliverPush(
    env,
    db,
    row.userId,
    { kind, title: edition.siteName, body: view.text, url: view.link ?? '/alarm' },
    now,
  )
  const release = () => db.run(`UPDATE alarms SET pushed_at = NULL WHERE id = ? AND pushed_at = ?`, alarmId, at)
  if (outcome.status === 'held') {
    await release()
    const wait = Math.ceil((Date.parse(outcome.holdUntil) - now.getTime()) / 1000)
    await env.ALARMS.send({ kind: 'push', alarmId }, { contentType: 'json', delaySeconds: Math.min(QUEUE_MAX_DELAY_S, Math.max(0, wait)) })
    return true
  }
  if (outcome.status === 'sent' && outcome.delivered === 0 && outcome.failed.length > 0) {
    await release()
    return false
  }
  return true
}
