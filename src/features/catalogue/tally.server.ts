/**
 * A series' own Durable Object for its counts (issue 38, counting outside D1; docs/ARCHITECTURE.md "Counting"),
 * addressed by the series' id (`tallyOf`), stored in SQLite (wrangler.jsonc `durable_objects`, migration tag v3). The
 * reader events' consumer hands it the series' views, reads and purchases (`count`); it counts each reader's events
 * once, in their order (`applied`: the newest event number of each reader, and the day of their latest read, which an
 * operator's notice to the series' readers reads: `readers`), and sums them in `pending`. Its alarm adds
 * the sums to D1 in one batch (`flush`) every TALLY_FLUSH_MS (2 s in a local run) while it has any: a row per episode viewed and per day
 * instead of rows per event. Each flush has a number, which D1 keeps in `series.tally_flush` and every statement is
 * guarded by (migrations/0043_series_tally.sql), so a flush sent twice adds once.
 */
import { DurableObject, env } from 'cloudflare:workers'
import { migrateObject } from '../../lib/server/object-schema.ts'
import { createDb, type Statement } from '../../lib/server/db.ts'
import { DAY_MS, isoAfter } from '../../lib/time.ts'
import { SERIES_READERS_DAYS, TALLY_FLUSH_MS, countsOf, type TallyCount, type TallyItem } from './tally.ts'
import { isLocalRun } from '../../lib/server/local-run.ts'

const TALLY_MIGRATIONS: readonly string[] = [
  // 1: each reader's newest event counted, the sums not yet in D1, the object's facts (series, flush numbers)
  `CREATE TABLE applied (
     reader_id  INTEGER PRIMARY KEY,
     seq        INTEGER NOT NULL,
     at         TEXT NOT NULL
   );
   CREATE INDEX applied_at ON applied (at);
   CREATE TABLE pending (
     day         TEXT NOT NULL,
     episode_id  INTEGER NOT NULL,
     views       INTEGER NOT NULL DEFAULT 0,
     readers     INTEGER NOT NULL DEFAULT 0,
     purchases   INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (day, episode_id)
   ) WITHOUT ROWID;
   CREATE TABLE facts (
     key    TEXT PRIMARY KEY,
     value  TEXT NOT NULL
   );`,
  // 2: each reader's latest UTC day of reading the series (`read` events), for an operator's notice to its readers
  `ALTER TABLE applied ADD COLUMN read_on TEXT;`,
  // 3: episodes' likes (issue 37 point 3), summed like views
  `ALTER TABLE pending ADD COLUMN likes INTEGER NOT NULL DEFAULT 0;`,
]

/**
 * How long a reader's row is kept after their last event counted: past the queue's retries (about 15 minutes) and an
 * operator's replay of dead letters, an event delivered again still counts once; and past SERIES_READERS_DAYS, so the
 * series' recent readers are all there.
 */
const APPLIED_KEEP_MS = (SERIES_READERS_DAYS + 1) * DAY_MS

/** A local run (docs/ARCHITECTURE.md "The local-run switch") adds its sums 2 s after it counted, so a developer sees them. */
const flushAfterMs = () => (isLocalRun() ? 2000 : TALLY_FLUSH_MS)

/** A flush in progress: its number and the sums it adds (kept until D1 said it applied them). */
type Flushing = { n: number; counts: TallyCount[] }

export const tallyOf = (seriesId: number) => env.TALLY.getByName(String(seriesId))

export class Tally extends DurableObject<Cloudflare.Env> {
  private readonly sql: SqlStorage

  constructor(ctx: DurableObjectState, workerEnv: Cloudflare.Env) {
    super(ctx, workerEnv)
    this.sql = ctx.storage.sql
    void ctx.blockConcurrencyWhile(async () => {
      migrateObject(ctx.storage, TALLY_MIGRATIONS)
    })
  }

  /**
   * Counts readers' events about series `seriesId`, each reader's in the order of their numbers: an event at or below
   * the reader's newest counted one changes nothing. Answers how many were counted.
   */
  async count(seriesId: number, items: TallyItem[]): Promise<number> {
    const now = new Date().toISOString()
    const counted = this.ctx.storage.transactionSync(() => {
      this.setFact('series', String(seriesId))
      let n = 0
      for (const { readerId, seq, event } of items) {
        const fresh = this.sql
          .exec(
            `INSERT INTO applied (reader_id, seq, at) VALUES (?1, ?2, ?3)
             ON CONFLICT (reader_id) DO UPDATE SET seq = excluded.seq, at = excluded.at WHERE excluded.seq > applied.seq
             RETURNING reader_id`,
            readerId,
            seq,
            now,
          )
          .toArray().length
        if (!fresh) continue
        if (event.kind === 'read')
          this.sql.exec(`UPDATE applied SET read_on = ?1 WHERE reader_id = ?2 AND coalesce(read_on, '') < ?1`, event.to, readerId)
        for (const c of countsOf(event)) {
          this.sql.exec(
            `INSERT INTO pending (day, episode_id, views, readers, purchases, likes) VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (day, episode_id) DO UPDATE
               SET views = views + excluded.views, readers = readers + excluded.readers, purchases = purchases + excluded.purchases,
                   likes = likes + excluded.likes`,
            c.day,
            c.episodeId,
            c.views,
            c.readers,
            c.purchases,
            c.likes,
          )
        }
        n++
      }
      return n
    })
    if (counted > 0) await this.flushBy(Date.now() + flushAfterMs())
    return counted
  }

  /** The readers (ids above `after`, in order, at most `limit`) whose latest read of the series is on UTC day `since` or later. */
  readers(since: string, after: number, limit: number): number[] {
    return this.sql
      .exec<{ id: number }>(
        `SELECT reader_id AS id FROM applied WHERE reader_id > ? AND read_on >= ? ORDER BY reader_id LIMIT ?`,
        after,
        since,
        limit,
      )
      .toArray()
      .map((r) => r.id)
  }

  override async alarm(): Promise<void> {
    await this.flush()
  }

  /**
   * Adds what the tally gathered to D1 in one batch: the flush left unfinished first (the same number, so D1 applies it
   * once), else the pending sums under the next number. A failure throws: the alarm is tried again, and the sums wait.
   */
  async flush(): Promise<number> {
    const seriesId = Number(this.fact('series'))
    const flushing = this.flushing() ?? this.nextFlush()
    if (!flushing) return 0
    const db = createDb(this.env.DB)
    await db.batch(flushStatements(seriesId, flushing))
    // a flush's D1 work, as X-D1-Usage reports a request's (`npm run capacity` reads it)
    console.log(JSON.stringify({ event: 'tally.usage', seriesId, counts: flushing.counts.length, ...db.usage }))
    this.ctx.storage.transactionSync(() => {
      // only this flush's record: a flush that overlapped it may have started the next one
      this.sql.exec(
        `INSERT INTO facts (key, value) VALUES ('flushed', ?) ON CONFLICT (key) DO UPDATE SET value = max(CAST(value AS INTEGER), excluded.value)`,
        flushing.n,
      )
      this.sql.exec(`DELETE FROM facts WHERE key = 'flushing' AND json_extract(value, '$.n') = ?`, flushing.n)
      this.sql.exec(`DELETE FROM applied WHERE at < ?`, isoAfter(new Date(), -APPLIED_KEEP_MS))
    })
    if (this.sql.exec(`SELECT 1 FROM pending LIMIT 1`).toArray().length) await this.flushBy(Date.now() + flushAfterMs())
    return flushing.n
  }

  /** The pending sums under the next flush number, moved out of `pending` in one transaction; null when there are none. */
  private nextFlush(): Flushing | null {
    return this.ctx.storage.transactionSync(() => {
      const counts = this.sql
        .exec<TallyCount>(`SELECT day, episode_id AS episodeId, views, readers, purchases, likes FROM pending ORDER BY day, episode_id`)
        .toArray()
      if (!counts.length) return null
      const flushing = { n: Number(this.fact('flushed') ?? 0) + 1, counts }
      this.sql.exec(`DELETE FROM pending`)
      this.setFact('flushing', JSON.stringify(flushing))
      return flushing
    })
  }

  private flushing(): Flushing | null {
    const stored = this.fact('flushing')
    return stored === null ? null : (JSON.parse(stored) as Flushing)
  }

  /** Sets the alarm to `at` unless one is set already. */
  private async flushBy(at: number): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(at)
  }

  private fact(key: string): string | null {
    return this.sql.exec<{ value: string }>(`SELECT value FROM facts WHERE key = ?`, key).toArray()[0]?.value ?? null
  }

  private setFact(key: string, value: string): void {
    this.sql.exec(`INSERT INTO facts (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
  }
}

/**
 * A flush's D1 batch for series `seriesId`: each episode's and the series' views, each episode's likes (never below zero), each day's readers and purchases
 * (`series_daily`; readers never below zero), each statement only while the flush's number is past the series'
 * `tally_flush`, which the last statement moves on. A series deleted since counts nothing.
 */
function flushStatements(seriesId: number, { n, counts }: Flushing): Statement[] {
  // both numbers are integers (the series' id, the flush's number)
  const fresh = `(SELECT tally_flush FROM series WHERE id = ${seriesId}) < ${n}`
  const views = counts.filter((c) => c.views > 0)
  // a flush recorded before likes were counted has none
  const liked = counts.filter((c) => (c.likes ?? 0) !== 0)
  const days = counts.filter((c) => c.day !== '' && (c.readers !== 0 || c.purchases !== 0))
  const total = views.reduce((sum, c) => sum + c.views, 0)
  return [
    ...views.map((c) => ({
      sql: `UPDATE episodes SET view_count = view_count + ?1 WHERE id = ?2 AND series_id = ?3 AND ${fresh}`,
      params: [c.views, c.episodeId, seriesId],
    })),
    ...liked.map((c) => ({
      sql: `UPDATE episodes SET like_count = max(like_count + ?1, 0) WHERE id = ?2 AND series_id = ?3 AND ${fresh}`,
      params: [c.likes, c.episodeId, seriesId],
    })),
    ...(total > 0 ? [{ sql: `UPDATE series SET view_count = view_count + ?1 WHERE id = ?2 AND ${fresh}`, params: [total, seriesId] }] : []),
    ...days.map((c) => ({
      sql: `INSERT INTO series_daily (day, series_id, readers, purchases) SELECT ?1, ?2, max(?3, 0), ?4 WHERE ${fresh}
            ON CONFLICT (day, series_id) DO UPDATE SET readers = max(readers + ?3, 0), purchases = purchases + ?4`,
      params: [c.day, seriesId, c.readers, c.purchases],
    })),
    { sql: `UPDATE series SET tally_flush = ?1 WHERE id = ?2 AND tally_flush < ?1`, params: [n, seriesId] },
  ]
}
