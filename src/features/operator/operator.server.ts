/**
 * Named operator tokens (issue 39 point 5, migration 0032 `operators`): created and revoked by root (OPS_TOKEN)
 * through `POST /api/ops/operators` and `…/{name}/revoke`, each in one batch with its audit row; a token is stored only
 * as its SHA-256 and shown once.
 */
import type { Db } from '../../lib/server/db.ts'
import type { OperatorsRow } from '../../lib/server/db-types.ts'
import type { Cols } from '../../lib/server/rows.ts'
import { firstRow, rows } from '../../lib/server/rows.ts'
import { isConstraint } from '../../lib/server/constraint.ts'
import { auditStatement, type AuditRecord } from './audit.server.ts'
import { isOperatorToken, newOperatorToken } from './operator.ts'

/** SHA-256 of a token, hex: what `operators.token_hash` holds. */
async function tokenHash(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)))
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** The live operator a named token belongs to, or null (unknown, revoked, or not a named token's shape). */
export async function operatorOfToken(db: Db, token: string): Promise<string | null> {
  if (!isOperatorToken(token)) return null
  const row = await db.first<Pick<OperatorsRow, 'name'>>(
    'SELECT name FROM operators WHERE token_hash = ? AND revoked_at IS NULL',
    await tokenHash(token),
  )
  return row?.name ?? null
}

export type OpsOperator = Cols<'operators', 'id' | 'name' | 'created_by' | 'created_at' | 'revoked_at'>
const OPERATOR_COLUMNS = 'id, name, created_by AS createdBy, created_at AS createdAt, revoked_at AS revokedAt'
/** An operator row as the audit keeps it (never its hash). */
const OPERATOR_OBJECT = `json_object('id', id, 'name', name, 'created_by', created_by, 'created_at', created_at, 'revoked_at', revoked_at)`
/** The operator row of `name` as JSON computed by SQL (its live token's, else its latest one's). */
const operatorJson = (name: string) => ({
  sql: `SELECT ${OPERATOR_OBJECT} FROM operators WHERE name = ? ORDER BY revoked_at IS NOT NULL, id DESC LIMIT 1`,
  params: [name],
})

const operatorByIdJson = (id: number) => ({ sql: `SELECT ${OPERATOR_OBJECT} FROM operators WHERE id = ?`, params: [id] })

/** Every operator token, live ones first, then newest first (never a hash). */
export async function listOperators(db: Db): Promise<OpsOperator[]> {
  return db.all<OpsOperator>(`SELECT ${OPERATOR_COLUMNS} FROM operators ORDER BY revoked_at IS NOT NULL, id DESC LIMIT 200`)
}

/**
 * A new token for operator `name`, in one batch with its audit row: answers the operator and the token (shown once),
 * or null when `name` already has a live token (nothing written).
 */
export async function addOperator(
  db: Db,
  name: string,
  audit: Omit<AuditRecord, 'before' | 'after' | 'target'>,
): Promise<{ operator: OpsOperator; token: string } | null> {
  const token = newOperatorToken(crypto.getRandomValues(new Uint8Array(32)))
  try {
    const [inserted] = await db.batch([
      {
        sql: `INSERT INTO operators (name, token_hash, created_by, created_at) VALUES (?, ?, ?, ?) RETURNING ${OPERATOR_COLUMNS}`,
        params: [name, await tokenHash(token), audit.operator, audit.at],
      },
      auditStatement({ ...audit, target: `operator:${name}`, before: null, after: null }, { afterSql: operatorJson(name) }),
    ])
    return { operator: firstRow<OpsOperator>(inserted)!, token }
  } catch (e) {
    if (isConstraint(e, 'UNIQUE')) return null
    throw e
  }
}

/**
 * Revokes the live token of `name` (refused from now on), in one batch with its audit row; null when there is none.
 * The audit row is written only when the update revoked one (`changes()`).
 */
export async function revokeOperator(
  db: Db,
  name: string,
  audit: Omit<AuditRecord, 'before' | 'after' | 'target'>,
): Promise<OpsOperator | null> {
  const live = await db.first<{ id: number; json: string }>(
    `SELECT id, ${OPERATOR_OBJECT} AS json FROM operators WHERE name = ? AND revoked_at IS NULL`,
    name,
  )
  if (!live) return null
  const before = JSON.parse(live.json) as Record<string, unknown>
  const [updated] = await db.batch([
    {
      sql: `UPDATE operators SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING ${OPERATOR_COLUMNS}`,
      params: [audit.at, live.id],
    },
    // only when this batch revoked it: a concurrent revoke writes no second row
    auditStatement(
      { ...audit, target: `operator:${name}`, before, after: null },
      { afterSql: operatorByIdJson(live.id), onlyIfChanged: true },
    ),
  ])
  return rows<OpsOperator>(updated)[0] ?? null
}
