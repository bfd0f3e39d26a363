/**
 * The alarm centre's rules (issue 13 point 1; spec §7 alarm, alarm count; §9 alarms kept 30 days). Pure data: per
 * event, the kind stored in `alarms.kind`, the message key of its text, the page it opens and the dedup key that
 * makes one alarm per reader and event. Links and dedup keys are templates over the event's ids, written into SQL
 * over the event's columns (`sqlOf`): every alarm, delivered at once or fanned out by the queue and the cron, is found
 * by one SELECT of alarm.server.ts, so every way writes the same strings.
 */
import type { AlarmsRow } from '../../lib/server/db-types.ts'
import { RowId } from '../../lib/ids.ts'
import { DAY_MS, HOUR_MS } from '../../lib/time.ts'
import type { Cols } from '../../lib/server/rows.ts'
import type { Translate } from '../../lib/i18n/i18n.ts'
import { formatDate } from '../../lib/i18n/dates.ts'
import { z } from 'zod'
import type { Edition } from '../../lib/edition/schema.ts'
import type { PushKind } from '../push/push.ts'
import { decodeCursor } from '../catalogue/catalogue.ts'

export const ALARM_RULES = {
  /** Support answered the reader's question (`answerQna`). */
  QNA_ANSWERED: { kind: 'QNA', text: 'alarm.text.qnaAnswered', link: '/qna', dedup: 'QNA:{qna}', push: null },
  /** Someone else replied to the reader's comment (`postComment`). */
  COMMENT_REPLY: { kind: 'COMMENT', text: 'alarm.text.commentReply', link: '/detail/{series}', dedup: 'REPLY:{reply}', push: null },
  /** A series the reader favourited published an episode (the queue, from its `published_at`). */
  EPISODE_PUBLISHED: {
    kind: 'EPISODE',
    text: 'alarm.text.episodePublished',
    link: '/viewer/{episode}',
    dedup: 'EPISODE:{episode}',
    push: 'contents',
  },
  /** An operator opened an episode of a series the reader favourited to early readers (issue 37 point 1; the queue). */
  EARLY_ACCESS: {
    kind: 'EPISODE',
    text: 'alarm.text.earlyAccess',
    link: '/viewer/{episode}',
    dedup: 'EARLY:{episode}',
    push: 'contents',
  },
  /** A rental of the reader ends within RENTAL_NOTICE_MS (cron); a rental taken again ends later and is a new event. */
  RENTAL_ENDING: {
    kind: 'EPISODE',
    text: 'alarm.text.rentalEnding',
    link: '/viewer/{episode}',
    dedup: 'RENT:{ownership}:{expires}',
    push: 'notice',
  },
  /** The series' next wait-until-free ticket is ready (cron): the ticket used last, `wuf_hours` before, has a successor. */
  TICKET_READY: { kind: 'EPISODE', text: 'alarm.text.ticketReady', link: '/detail/{series}', dedup: 'WUF:{ticket}', push: 'freetime' },
  /** Coins or bonus of one lot expire within LOT_NOTICE_MS (cron). */
  COINS_EXPIRING: { kind: 'COIN', text: 'alarm.text.coinsExpiring', link: '/history/charge', dedup: 'LOT:{lot}', push: 'notice' },
  /** A gift reached the reader's gift box (cron, within EPISODE_LOOKBACK_MS of its `given_at`, whoever gave it). */
  GIFT_ARRIVED: { kind: 'GIFT', text: 'alarm.text.giftArrived', link: '/gift', dedup: 'GIFT:{gift}', push: 'notice' },
  /** An operator's notice (`npm run ops -- alarm send`, the queue): its text as written, in the edition's language. */
  NOTICE: { kind: 'NOTICE', text: 'alarm.text.notice', link: '{link}', dedup: 'NOTICE:{broadcast}', push: 'notice' },
} as const satisfies Record<
  string,
  { kind: AlarmsRow['kind']; text: `alarm.text.${string}`; link: string; dedup: string; push: PushKind | null }
>

export type AlarmRuleName = keyof typeof ALARM_RULES

/** How long before a rental ends its alarm is written. */
export const RENTAL_NOTICE_MS = 24 * HOUR_MS
/** How long before coins or bonus expire their alarm is written. */
export const LOT_NOTICE_MS = 7 * DAY_MS
/** How far back the episode sweep looks for publications it has not announced yet (a missed cron run is caught up). */
export const EPISODE_LOOKBACK_MS = DAY_MS
/**
 * How far back the sweep looks for support answers and comment replies whose alarm could not be delivered at once
 * (`alarmNow`).
 */
export const DELIVERY_LOOKBACK_MS = HOUR_MS
/** Longest wait of a series' wait-until-free tickets the ticket sweep looks back over (tickets used earlier are not read). */
export const WUF_LOOKBACK_MS = 31 * DAY_MS
/** Alarms one sweep statement writes at most (docs/SCALE.md: bounded batches). */
export const ALARM_BATCH = 500
/**
 * What one fan-out message of the queue writes before handing on to the next message: `batches` batches of `batch`
 * readers (the queue tests make it small).
 */
export type FanoutSize = { batch: number; batches: number }
export const FANOUT_SIZE: FanoutSize = { batch: ALARM_BATCH, batches: 4 }
/** Alarms per page of the list. */
export const ALARM_PAGE_SIZE = 30
/** Kept 30 days (spec §9). */
export const ALARM_KEEP_MS = 30 * DAY_MS

/** The same template as an SQL string expression, each `{name}` replaced by the SQL of `columns[name]`. */
export function sqlOf(template: string, columns: Record<string, string>): string {
  const parts = template.split(/(\{\w+\})/).filter((p) => p !== '')
  return parts
    .map((p) => {
      const hole = /^\{(\w+)\}$/.exec(p)
      if (!hole) return `'${p.replaceAll("'", "''")}'`
      const col = columns[hole[1]!]
      if (col === undefined) throw new Error(`alarm: no column for ${p}`)
      return `(${col})`
    })
    .join(' || ')
}

/** The rule whose stored message key (`alarms.title`) is `text`. */
export const ruleOfText = (text: string) => Object.values(ALARM_RULES).find((r) => r.text === text)

export type AlarmRow = Cols<'alarms', 'id' | 'kind' | 'title' | 'body' | 'link' | 'read_at' | 'created_at'>
/** An alarm for one reader's object (alarm-store.server.ts): what the row holds before it has an id. */
export type NewAlarm = Omit<AlarmRow, 'id' | 'readAt'> & { dedupKey: string }
/** An alarm as the API and the page show it: its text written in the edition's language, dates in its format. */
export type AlarmView = { id: number; kind: AlarmsRow['kind']; text: string; link: string | null; read: boolean; createdAt: string }

/** The view of a stored alarm: `title` is its message key, `body` the JSON parameters (a `date` is an ISO instant). */
export function alarmView(row: AlarmRow, t: Translate, edition: Pick<Edition, 'timeZone' | 'locale' | 'dateForm'>): AlarmView {
  const params = JSON.parse(row.body || '{}') as Record<string, unknown>
  if (typeof params.date === 'string') params.date = formatDate(params.date, edition)
  const rule = ruleOfText(row.title)
  const text = rule ? t(rule.text, params) : ''
  return { id: row.id, kind: row.kind, text, link: row.link, read: row.readAt !== null, createdAt: row.createdAt }
}

/** `GET /alarm?cursor=`: where the page starts, after the previous page's last alarm (time and id, `encodeCursor`). */
export const AlarmListQuery = z.object({
  cursor: z
    .string()
    .transform((raw, ctx) => decodeCursor(raw, 'newest') ?? (ctx.addIssue({ code: 'custom', message: 'cursor' }), z.NEVER))
    .optional(),
})
/** `POST /alarm/read` and the list's open form: one alarm of the reader. */
export const AlarmReadRequest = z.object({ id: RowId })

/**
 * A message of the alarm queue (issue 13 point 3, docs/ARCHITECTURE.md "Alarms"): the next ALARM_BATCH readers
 * (user id above `after`) of a published episode or of an operator's broadcast, or the push of one alarm.
 */
export const AlarmJob = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('episode'), episodeId: RowId, after: z.number().int().min(0) }),
  // an episode opened early (issue 37 point 1): its series' favourites
  z.object({ kind: z.literal('early'), episodeId: RowId, after: z.number().int().min(0) }),
  z.object({ kind: z.literal('broadcast'), broadcastId: RowId, after: z.number().int().min(0) }),
  // readerId: the object holding the alarm (absent from a message queued before alarms moved into the objects)
  z.object({ kind: z.literal('push'), alarmId: RowId, readerId: RowId.optional() }),
  // a reader's data export to prepare (export/export.server.ts `prepareExport`; issue 37 point 6)
  z.object({ kind: z.literal('export'), exportId: z.uuid() }),
])
export type AlarmJob = z.infer<typeof AlarmJob>

/** `POST /api/ops/alarms` and `npm run ops -- alarm send`: a notice to every reader or to the readers of one series. */
export const AlarmBroadcastRequest = z.object({
  text: z.string().trim().min(1).max(200),
  /** A page of this site, e.g. `/notice/3`. */
  link: z
    .string()
    .max(300)
    .regex(/^\/(?!\/)[^\s\\]*$/)
    .optional(),
  seriesId: RowId.optional(),
  reason: z.string().trim().min(1).max(200),
})
export type AlarmBroadcastRequest = z.infer<typeof AlarmBroadcastRequest>
