/**
 * The alarm centre inside the reader's own object (issue 38; docs/ARCHITECTURE.md "Reader objects", "Alarms"): one
 * row per alarm, one per event through its unique dedup key, so an event delivered twice gives one alarm. Synchronous
 * SQL on the object's SQLite (src/objects/reader/reader.server.ts); alarms older than ALARM_KEEP_MS are neither shown nor kept.
 */
import type { Cursor } from '../catalogue/catalogue.ts'
import { ALARM_KEEP_MS, ALARM_PAGE_SIZE, type AlarmRow, type NewAlarm } from './alarm.ts'
import { isoAfter } from '../../lib/time.ts'
import type { Statement } from '../../lib/server/db.ts'

const ROW = `id, kind, title, body, link, read_at AS readAt, created_at AS createdAt`
const kept = (now: string) => isoAfter(new Date(now), -ALARM_KEEP_MS)

/** Writes the alarms the reader does not have yet (by dedup key) and drops those past their month; answers the new ids. */
export function addAlarms(sql: SqlStorage, alarms: readonly NewAlarm[], now: string): number[] {
  sql.exec(`DELETE FROM alarms WHERE created_at <= ?`, kept(now))
  return alarms.flatMap((a) =>
    sql
      .exec<{ id: number }>(
        `INSERT INTO alarms (kind, title, body, link, dedup_key, created_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (dedup_key) DO NOTHING RETURNING id`,
        a.kind,
        a.title,
        a.body,
        a.link,
        a.dedupKey,
        a.createdAt,
      )
      .toArray()
      .map((r) => r.id),
  )
}

/** Alarms moved in from D1 (ids kept, so a push queued before the move still finds its alarm); one already here stays. */
export function mergeAlarms(sql: SqlStorage, rows: readonly (AlarmRow & { dedupKey: string; pushedAt: string | null })[]): void {
  for (const r of rows)
    sql.exec(
      `INSERT INTO alarms (id, kind, title, body, link, dedup_key, created_at, read_at, pushed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
      r.id,
      r.kind,
      r.title,
      r.body,
      r.link,
      r.dedupKey,
      r.createdAt,
      r.readAt,
      r.pushedAt,
    )
}

/** A page of the reader's alarms, newest first after `cursor`, with one more row when there are more. */
export function alarmPage(sql: SqlStorage, cursor: Cursor | null, now: string): AlarmRow[] {
  return sql
    .exec<AlarmRow>(
      `SELECT ${ROW} FROM alarms WHERE created_at > ?1 AND (?2 IS NULL OR created_at < ?2 OR (created_at = ?2 AND id < ?3))
        ORDER BY created_at DESC, id DESC LIMIT ${ALARM_PAGE_SIZE + 1}`,
      kept(now),
      cursor?.k ?? null,
      cursor?.id ?? 0,
    )
    .toArray()
}

/** The count of the reader's unread alarms at `now`, as a statement (the `me` procedure runs it in its own batch). */
export function unreadStatement(now: string): Required<Statement> {
  return { sql: `SELECT count(*) AS n FROM alarms WHERE read_at IS NULL AND created_at > ?`, params: [kept(now)] }
}

/** The reader's unread alarms. */
export function unreadAlarms(sql: SqlStorage, now: string): number {
  const { sql: count, params } = unreadStatement(now)
  return sql.exec<{ n: number }>(count, ...params).one().n
}

/** Marks one alarm read (repeatable): its link, or false when there is no such alarm. */
export function readAlarm(sql: SqlStorage, id: number, now: string): string | null | false {
  const row = sql
    .exec<{ link: string | null }>(`UPDATE alarms SET read_at = coalesce(read_at, ?2) WHERE id = ?1 RETURNING link`, id, now)
    .toArray()[0]
  return row ? row.link : false
}

/** Marks every alarm read; answers how many were unread. */
export function readAllAlarms(sql: SqlStorage, now: string): number {
  return sql.exec(`UPDATE alarms SET read_at = ? WHERE read_at IS NULL RETURNING id`, now).toArray().length
}

/**
 * Claims an alarm's push (`at`: the claim), or gives a claim back (`release`). A claim is taken once, and not for
 * an alarm read meanwhile: answers the alarm claimed, or null.
 */
export function claimPush(sql: SqlStorage, id: number, at: string, release: boolean): AlarmRow | null {
  if (release) {
    sql.exec(`UPDATE alarms SET pushed_at = NULL WHERE id = ? AND pushed_at = ?`, id, at)
    return null
  }
  return (
    sql
      .exec<AlarmRow>(`UPDATE alarms SET pushed_at = ?2 WHERE id = ?1 AND pushed_at IS NULL AND read_at IS NULL RETURNING ${ROW}`, id, at)
      .toArray()[0] ?? null
  )
}
