/**
 * The alarm centre's rules (issue 13 point 1; spec §7 alarm, alarm count; §9 alarms kept 30 days). Pure data: per
 * event, the kind stored in `alarms.kind`, the message key of its text, the page it opens and the dedup key that
 * makes one alarm per reader and event. Links and dedup keys are templates over the event's ids, written into SQL
 * over the event's columns (`sqlOf`): every alarm, synchronous or fanned out by the cron, is one INSERT … SELECT of
 * alarm.server.ts, so both ways write the same strings.
 */
import type { AlarmsRow } from '../../lib/server/db-types.ts'
import { DAY_MS, HOUR_MS } from '../../lib/time.ts'
import type { Cols } from '../../lib/server/rows.ts'
import type { Translate } from '../../lib/i18n/i18n.ts'
import { formatDate } from '../../lib/i18n/format.ts'
import { z } from 'zod'
import type { Edition } from '../../lib/edition/schema.ts'

export const ALARM_RULES = {
  /** Support answered the reader's question (`answerQna`). */
  QNA_ANSWERED: { kind: 'QNA', text: 'alarm.text.qnaAnswered', link: '/qna', dedup: 'QNA:{qna}' },
  /** Someone else replied to the reader's comment (`postComment`). */
  COMMENT_REPLY: { kind: 'COMMENT', text: 'alarm.text.commentReply', link: '/detail/{series}', dedup: 'REPLY:{reply}' },
  /** A series the reader favourited published an episode (cron, at its `published_at`). */
  EPISODE_PUBLISHED: { kind: 'EPISODE', text: 'alarm.text.episodePublished', link: '/viewer/{episode}', dedup: 'EPISODE:{episode}' },
  /** A rental of the reader ends within RENTAL_NOTICE_MS (cron); a rental taken again ends later and is a new event. */
  RENTAL_ENDING: { kind: 'EPISODE', text: 'alarm.text.rentalEnding', link: '/viewer/{episode}', dedup: 'RENT:{ownership}:{expires}' },
  /** The series' next wait-until-free ticket is ready (cron): the ticket used last, `wuf_hours` before, has a successor. */
  TICKET_READY: { kind: 'EPISODE', text: 'alarm.text.ticketReady', link: '/detail/{series}', dedup: 'WUF:{ticket}' },
  /** Coins or bonus of one lot expire within LOT_NOTICE_MS (cron). */
  COINS_EXPIRING: { kind: 'COIN', text: 'alarm.text.coinsExpiring', link: '/history/charge', dedup: 'LOT:{lot}' },
} as const satisfies Record<string, { kind: AlarmsRow['kind']; text: `alarm.text.${string}`; link: string; dedup: string }>

export type AlarmRuleName = keyof typeof ALARM_RULES
type AlarmText = (typeof ALARM_RULES)[AlarmRuleName]['text']

/** How long before a rental ends its alarm is written. */
export const RENTAL_NOTICE_MS = 24 * HOUR_MS
/** How long before coins or bonus expire their alarm is written. */
export const LOT_NOTICE_MS = 7 * DAY_MS
/** How far back the episode sweep looks for publications it has not announced yet (a missed cron run is caught up). */
export const EPISODE_LOOKBACK_MS = DAY_MS
/** Longest wait of a series' wait-until-free tickets the ticket sweep looks back over (tickets used earlier are not read). */
export const WUF_LOOKBACK_MS = 31 * DAY_MS
/** Alarms one sweep statement writes at most (docs/SCALE.md: bounded batches). */
export const ALARM_BATCH = 500
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

/** Whether a stored message key is one of the rules'. */
const isAlarmText = (key: string): key is AlarmText => Object.values(ALARM_RULES).some((r) => r.text === key)

export type AlarmRow = Cols<'alarms', 'id' | 'kind' | 'title' | 'body' | 'link' | 'read_at' | 'created_at'>
/** An alarm as the API and the page show it: its text written in the edition's language, dates in its format. */
export type AlarmView = { id: number; kind: AlarmsRow['kind']; text: string; link: string | null; read: boolean; createdAt: string }

/** The view of a stored alarm: `title` is its message key, `body` the JSON parameters (a `date` is an ISO instant). */
export function alarmView(row: AlarmRow, t: Translate, edition: Pick<Edition, 'timeZone'>): AlarmView {
  const params = JSON.parse(row.body || '{}') as Record<string, unknown>
  if (typeof params.date === 'string') params.date = formatDate(params.date, edition)
  const text = isAlarmText(row.title) ? t(row.title, params) : ''
  return { id: row.id, kind: row.kind, text, link: row.link, read: row.readAt !== null, createdAt: row.createdAt }
}

/** `GET /alarm?cursor=`: the id below which the page starts. */
export const AlarmListQuery = z.object({
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,15}$/)
    .optional(),
})
/** `POST /alarm/read` and the list's open form: one alarm of the reader. */
export const AlarmReadRequest = z.object({ id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) })
