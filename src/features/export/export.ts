/**
 * The reader's own data, self-served (issue 37 point 6, GDPR Art. 20; docs/API.md `/user/export`): one export per reader and
 * edition day, prepared in the background from D1 and the reader's object, kept 24 hours as a JSON file and a ZIP of
 * CSV files (one per section), then deleted. Pure: the sections' shape and the files' bytes.
 */
import { strToU8, zipSync } from 'fflate'
import { z } from 'zod'
import { DAY_MS } from '../../lib/time.ts'

/** How long the files are offered once ready. */
export const EXPORT_KEEP_MS = DAY_MS
/** How long a request is remembered (the /setting section shows the last one; its files went after EXPORT_KEEP_MS). */
export const EXPORT_ROWS_KEEP_MS = 30 * DAY_MS
/** Exports whose preparation has not started after this long are queued again (a lost message). */
export const EXPORT_STALE_MS = 15 * 60_000

/** The download formats: the JSON file, or the CSV files in one ZIP. */
export const ExportFormat = z.enum(['json', 'csv'])
export type ExportFormat = z.infer<typeof ExportFormat>

/** The sections of an export, in the order of the JSON file and of the ZIP's files. */
const EXPORT_SECTIONS = [
  'account',
  'purchases',
  'rights',
  'coinLedger',
  'favorites',
  'hidden',
  'progress',
  'likes',
  'follows',
  'comments',
  'questions',
] as const
type Section = (typeof EXPORT_SECTIONS)[number]
type Cell = string | number | null
export type ExportData = Record<Section, Record<string, Cell>[]>

/** Where an export's files are kept in R2 (`format`: json, or csv for the ZIP). */
export const exportKey = (userId: number, id: string, format: ExportFormat) =>
  `exports/${userId}/${id}.${format === 'json' ? 'json' : 'zip'}`

/** The file name a browser saves (the site's name, the day it was asked for). */
export const exportFileName = (siteName: string, day: string, format: ExportFormat) =>
  `${siteName.replace(/[^\p{L}\p{N}]+/gu, '-')}-${day}.${format === 'json' ? 'json' : 'zip'}`

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break; a text that a spreadsheet would take
 * for a formula (=, +, -, @, tab, return first) is prefixed with an apostrophe (OWASP CSV injection). Numbers as they are.
 */
function csvCell(value: Cell): string {
  if (value === null) return ''
  if (typeof value === 'number') return String(value)
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** The rows as CSV: a header of every column met, in first-seen order; CRLF line ends. */
function toCsv(rows: readonly Record<string, Cell>[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))]
  const lines = [columns.map(csvCell), ...rows.map((r) => columns.map((c) => csvCell(r[c] ?? null)))]
  return lines.map((l) => l.join(',')).join('\r\n') + '\r\n'
}

/** The export's two files: the JSON document, and the ZIP of one CSV per section (UTF-8 with a byte order mark, for spreadsheets). */
export function exportFiles(data: ExportData, exportedAt: string): { json: string; zip: Uint8Array } {
  const json = JSON.stringify({ exportedAt, ...data }, null, 2)
  const zip = zipSync(Object.fromEntries(EXPORT_SECTIONS.map((s) => [`${s}.csv`, strToU8(`\ufeff${toCsv(data[s])}`)])), {
    mtime: new Date(exportedAt),
  })
  return { json, zip }
}
