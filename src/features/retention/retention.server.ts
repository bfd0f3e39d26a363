/**
 * The retention sweep (issue 24 point 3, docs/SCALE.md "Retention"), run by the cron of functions/worker.ts: every
 * rule of retention.ts deletes its expired rows in batches of at most RETENTION_BATCH, by rowid (or primary key) through the rule's
 * index (migrations/0016_retention.sql), never one statement over a whole table; the tables take turns until each is
 * clean or the run's budget is spent (src/lib/server/sweep.ts), and the next run goes on.
 */
import type { Db } from '../../lib/server/db.ts'
import { cronBudget, sweep, type SweepBudget, type SweepResult } from '../../lib/server/sweep.ts'
import { RETENTION_BATCH, RETENTION_RULES, retentionCutoff, type RetentionRule } from './retention.ts'

/** A rule's values are constants of the code, written into the SQL as literals (a partial index only matches those). */
const literal = (v: string) => {
  if (!/^[A-Z_]+$/.test(v)) throw new Error(`retention: ${v} is not a constant`)
  return `'${v}'`
}

/** SQL selecting up to `?2` rowids (or `column`s) of the rule's table whose age passed the cutoff `?1`. */
function expiredRows(rule: RetentionRule, column: string, extra = ''): string {
  const only = rule.only ? ` AND ${rule.only.column} IN (${rule.only.values.map(literal).join(', ')})` : ''
  const unset = rule.unset ? ` AND ${rule.unset} IS NULL` : ''
  return `SELECT ${column} FROM ${rule.table} WHERE ${rule.since} <= ?1${only}${unset}${extra} LIMIT ?2`
}

/** One batch of one rule: the rows it deleted from the rule's table (at most `size`). */
async function deleteBatch(db: Db, rule: RetentionRule, cutoff: string, size: number): Promise<number> {
  const dep = rule.dependents
  // a WITHOUT ROWID table's rows are found by their primary key
  const rowKey = rule.key ? `(${rule.key.join(', ')})` : 'rowid'
  const rowKeyColumns = rule.key ? rule.key.join(', ') : 'rowid'
  if (!dep) return db.run(`DELETE FROM ${rule.table} WHERE ${rowKey} IN (${expiredRows(rule, rowKeyColumns)})`, cutoff, size)
  // the referencing rows of the first `size` expired rows go first; then those rows, now unreferenced (the same
  // index order picks the same rows, and a row still referenced is never deleted: the foreign key stays whole)
  const [, deleted] = await db.batch([
    { sql: `DELETE FROM ${dep.table} WHERE ${dep.column} IN (${expiredRows(rule, dep.key)})`, params: [cutoff, size] },
    {
      sql: `DELETE FROM ${rule.table} WHERE ${rowKey} IN (${expiredRows(
        rule,
        rowKeyColumns,
        ` AND NOT EXISTS (SELECT 1 FROM ${dep.table} d WHERE d.${dep.column} = ${rule.table}.${dep.key})`,
      )})`,
      params: [cutoff, size],
    },
  ])
  return deleted!.meta.changes ?? 0
}

export type RetentionReport = { table: RetentionRule['table'] } & SweepResult

/**
 * Deletes what RETENTION_RULES say has expired at `now`, in batches of RETENTION_BATCH rows, within `budget`.
 * Answers per rule the rows deleted, the batches run and whether the table is clean (false: the budget ran out).
 */
export async function purgeExpired(
  db: Db,
  now = new Date(),
  budget: SweepBudget = cronBudget(),
  rules: readonly RetentionRule[] = RETENTION_RULES,
): Promise<RetentionReport[]> {
  const results = await sweep(
    rules.map((rule) => {
      const cutoff = retentionCutoff(rule, now)
      return () => deleteBatch(db, rule, cutoff, RETENTION_BATCH)
    }),
    RETENTION_BATCH,
    budget,
  )
  return rules.map((rule, i) => ({ table: rule.table, ...results[i]! }))
}
