/**
 * The reader's data export (issue 37 point 6; docs/API.md `/user/export`). Asking is one conditional INSERT (one per reader
 * and edition day: the unique index `data_exports_once`) and one message on the alarm queue; the queue's consumer
 * gathers the data — the account, comments and questions from D1, purchases, rights and the coin ledger through
 * `moneyDb`, the library from the reader's object — writes the JSON file and the ZIP of CSVs to R2, marks the export
 * ready and mails the reader; the files are offered to the signed-in reader for EXPORT_KEEP_MS, then the sweep deletes them.
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import type { Cols } from '../../lib/server/rows.ts'
import type { Translate } from '../../lib/i18n/i18n.ts'
import { isoAfter, localDay } from '../../lib/time.ts'
import { messageProvider } from '../../lib/messaging/messaging.server.ts'
import { moneyDb } from '../reader/money-db.server.ts'
import { withReader } from '../reader/stub.server.ts'
import { catalogueTitles } from '../wallet/wallet.server.ts'
import {
  EXPORT_KEEP_MS,
  EXPORT_ROWS_KEEP_MS,
  EXPORT_STALE_MS,
  exportFiles,
  exportFileName,
  exportKey,
  type ExportData,
  type ExportFormat,
} from './export.ts'

/** The alarm queue as an export uses it (its `export` job; src/features/alarm/queue.server.ts runs it). */
type ExportJob = { kind: 'export'; exportId: string }
type ExportQueue = {
  send(body: ExportJob): Promise<unknown>
  sendBatch(messages: Iterable<MessageSendRequest<ExportJob>>): Promise<unknown>
}

/** An export as the reader sees it: EXPIRED once its files are gone or due to go. */
export type ExportView = {
  id: string
  status: 'PENDING' | 'READY' | 'EXPIRED'
  day: string
  requestedAt: string
  readyAt: string | null
  expiresAt: string | null
}
type ExportRow = ExportView & Cols<'data_exports', 'status'>

const viewOf = (row: ExportRow, now: Date): ExportView => ({
  ...row,
  status: row.status === 'READY' && row.expiresAt !== null && row.expiresAt <= now.toISOString() ? 'EXPIRED' : row.status,
})
const EXPORT_COLUMNS = `id, day, status, requested_at AS requestedAt, ready_at AS readyAt, expires_at AS expiresAt`

/**
 * Asks for an export of reader `userId`'s data: one per edition day (LIMIT_DATA_EXPORT otherwise), decided by the
 * INSERT itself, so 40 requests at once make one. The preparation leaves through the queue.
 */
export async function requestExport(db: Db, queue: ExportQueue, userId: number, timeZone: string, now = new Date()): Promise<ExportView> {
  const row = await db.first<ExportRow>(
    `INSERT INTO data_exports (id, user_id, day, requested_at)
     SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM users WHERE id = ?2 AND deleted_at IS NULL)
     ON CONFLICT DO NOTHING RETURNING ${EXPORT_COLUMNS}`,
    crypto.randomUUID(),
    userId,
    localDay(now, timeZone),
    now.toISOString(),
  )
  if (!row) throw new AppError('LIMIT_DATA_EXPORT')
  // a lost message is sent again by the sweep (`sweepExports`), so a failure here still leaves the export coming
  await queue.send({ kind: 'export', exportId: row.id }).catch((e: unknown) => console.error(`export ${row.id}: not queued: ${String(e)}`))
  return viewOf(row, now)
}

/** The reader's latest export, if any (the /setting section and `GET /user/export`). */
export async function latestExport(db: Db, userId: number, now = new Date()): Promise<ExportView | null> {
  const row = await db.first<ExportRow>(
    `SELECT ${EXPORT_COLUMNS} FROM data_exports WHERE user_id = ? ORDER BY requested_at DESC LIMIT 1`,
    userId,
  )
  return row ? viewOf(row, now) : null
}

/** One file of the reader's own ready export, for download; NOT_EXIST when unknown, another reader's, not ready or gone. */
export async function exportFile(
  db: Db,
  media: R2Bucket,
  userId: number,
  id: string,
  format: ExportFormat,
  siteName: string,
  now = new Date(),
): Promise<Response> {
  const row = await db.first<Pick<ExportRow, 'day'>>(
    `SELECT day FROM data_exports WHERE id = ? AND user_id = ? AND status = 'READY' AND expires_at > ?`,
    id,
    userId,
    now.toISOString(),
  )
  const file = row ? await media.get(exportKey(userId, id, format)) : null
  if (!row || !file) throw new AppError('NOT_EXIST')
  return new Response(file.body, {
    headers: {
      'content-type': format === 'json' ? 'application/json; charset=utf-8' : 'application/zip',
      'content-disposition': `attachment; filename="${exportFileName(siteName, row.day, format)}"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  })
}

type Cell = string | number | null
type Rows = Record<string, Cell>[]

/** Every section of reader `userId`'s export: D1's rows, their money rows, their object's library. */
async function gather(db: Db, userId: number): Promise<ExportData> {
  const [[account, comments, questions], [purchases, rights, coinLedger], library] = await Promise.all([
    db.batch([
      {
        sql: `SELECT id, email, nickname, phone, birthed_at AS birthedAt, is_adult AS isAdult, adult_verified_at AS adultVerifiedAt,
                     is_agree_mail AS isAgreeMail, show_adult AS showAdult, platform, created_at AS createdAt, last_login_at AS lastLoginAt
                FROM users WHERE id = ?`,
        params: [userId],
      },
      {
        sql: `SELECT id, series_id AS seriesId, episode_id AS episodeId, parent_id AS parentId, body, state, like_count AS likes,
                     created_at AS createdAt FROM comments WHERE user_id = ? ORDER BY id`,
        params: [userId],
      },
      {
        sql: `SELECT id, category, title, body, status, answer, answered_at AS answeredAt, episode_id AS episodeId, problem,
                     created_at AS createdAt FROM qnas WHERE user_id = ? ORDER BY id`,
        params: [userId],
      },
    ]),
    moneyDb(db, userId).batch([
      {
        sql: `SELECT id, series_id AS seriesId, episode_id AS episodeId, type, coins, created_at AS createdAt FROM purchases WHERE user_id = ? ORDER BY id`,
        params: [userId],
      },
      {
        sql: `SELECT series_id AS seriesId, episode_id AS episodeId, kind, expires_at AS expiresAt, created_at AS createdAt
                FROM ownerships WHERE user_id = ? ORDER BY id`,
        params: [userId],
      },
      {
        sql: `SELECT id, kind, type, source, amount, product_kind AS productKind, series_id AS seriesId, episode_id AS episodeId,
                     description, created_at AS createdAt FROM coin_ledger WHERE user_id = ? ORDER BY id`,
        params: [userId],
      },
    ]),
    withReader(userId, (r) => r.exportRows(userId)),
  ])
  const rows = (r: D1Result | undefined) => (r?.results ?? []) as Rows
  return {
    account: rows(account),
    purchases: rows(purchases),
    rights: rows(rights),
    coinLedger: rows(coinLedger),
    ...library,
    comments: rows(comments),
    questions: rows(questions),
  }
}

/** Each row of the export that names a series gets its title (one D1 read), for a reader who reads the file. */
async function withTitles(db: Db, data: ExportData): Promise<ExportData> {
  const named = Object.values(data).flatMap((rows) =>
    rows.flatMap((r) => (typeof r.seriesId === 'number' ? [{ seriesId: r.seriesId, episodeId: null }] : [])),
  )
  if (named.length === 0) return data
  const titles = (await catalogueTitles(db, named)).series
  const titled = (rows: Rows) =>
    rows.map((r) => (typeof r.seriesId === 'number' ? { ...r, seriesTitle: titles.get(r.seriesId) ?? null } : r))
  return Object.fromEntries(Object.entries(data).map(([section, rows]) => [section, titled(rows)])) as ExportData
}

/**
 * The queue's work for export `exportId`: gathers the data, writes both files to R2, marks it ready for EXPORT_KEEP_MS
 * and mails the reader a link to /setting. Safe to run twice: an export no longer PENDING is left as it is.
 */
export async function prepareExport(
  db: Db,
  media: R2Bucket,
  exportId: string,
  ctx: { t: Translate; siteUrl: string; formatDate: (iso: string) => string },
  now = new Date(),
): Promise<void> {
  const row = await db.first<{ userId: number; email: string | null }>(
    `SELECT d.user_id AS userId, u.email FROM data_exports d JOIN users u ON u.id = d.user_id WHERE d.id = ? AND d.status = 'PENDING'`,
    exportId,
  )
  if (!row) return
  const files = exportFiles(await withTitles(db, await gather(db, row.userId)), now.toISOString())
  await Promise.all([
    media.put(exportKey(row.userId, exportId, 'json'), files.json, { httpMetadata: { contentType: 'application/json' } }),
    media.put(exportKey(row.userId, exportId, 'csv'), files.zip, { httpMetadata: { contentType: 'application/zip' } }),
  ])
  const expiresAt = isoAfter(now, EXPORT_KEEP_MS)
  const ready = await db.run(
    `UPDATE data_exports SET status = 'READY', ready_at = ?, expires_at = ? WHERE id = ? AND status = 'PENDING'`,
    now.toISOString(),
    expiresAt,
    exportId,
  )
  if (ready === 0 || !row.email) return
  await messageProvider(db).send(
    {
      channel: 'MAIL',
      recipient: row.email,
      template: 'data-export',
      subject: ctx.t('account.export.mail.subject'),
      body: ctx.t('account.export.mail.body', {
        until: ctx.formatDate(expiresAt),
        url: new URL('/setting#export', ctx.siteUrl).toString(),
      }),
      meta: { exportId },
    },
    now,
  )
}

/** Exports swept per cron run at most. */
const EXPORTS_PER_RUN = 100

/**
 * The cron's care of exports: deletes the files of those whose day has passed (EXPIRED), queues again those still
 * PENDING after EXPORT_STALE_MS (a message lost on the way), and forgets the requests older than EXPORT_ROWS_KEEP_MS
 * (their files are gone). Answers how many it touched.
 */
export async function sweepExports(db: Db, media: R2Bucket, queue: ExportQueue, now: Date): Promise<number> {
  const [due, stale, forgotten] = await db.batch([
    {
      sql: `SELECT id, user_id AS userId FROM data_exports WHERE status = 'READY' AND expires_at <= ? ORDER BY expires_at LIMIT ?`,
      params: [now.toISOString(), EXPORTS_PER_RUN],
    },
    {
      // within a day of the request: one that keeps failing ends in the dead-letter queue and its alert, not in a loop
      sql: `SELECT id FROM data_exports WHERE status = 'PENDING' AND requested_at <= ? AND requested_at > ? ORDER BY requested_at LIMIT ?`,
      params: [isoAfter(now, -EXPORT_STALE_MS), isoAfter(now, -EXPORT_KEEP_MS), EXPORTS_PER_RUN],
    },
    // a READY one keeps its row until its files are deleted above
    { sql: `DELETE FROM data_exports WHERE requested_at < ? AND status <> 'READY'`, params: [isoAfter(now, -EXPORT_ROWS_KEEP_MS)] },
  ])
  const expired = (due?.results ?? []) as { id: string; userId: number }[]
  const waiting = (stale?.results ?? []) as { id: string }[]
  if (expired.length) {
    await media.delete(expired.flatMap((e) => [exportKey(e.userId, e.id, 'json'), exportKey(e.userId, e.id, 'csv')]))
    await db.run(
      `UPDATE data_exports SET status = 'EXPIRED' WHERE status = 'READY' AND id IN (SELECT value FROM json_each(?))`,
      JSON.stringify(expired.map((e) => e.id)),
    )
  }
  if (waiting.length) await queue.sendBatch(waiting.map((w) => ({ body: { kind: 'export' as const, exportId: w.id } })))
  return expired.length + waiting.length + (forgotten?.meta.changes ?? 0)
}
