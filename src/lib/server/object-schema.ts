/**
 * Migrations of a Durable Object's own SQLite (docs/ARCHITECTURE.md "Reader objects"): applied inside the object when it
 * starts (before any call reaches it), each in one transaction with the version it leads to. Like migrations/*.sql for
 * D1: append, never edit one that has shipped.
 */

/** Brings the object's SQLite to the last of `migrations` (migration n + 1 is `migrations[n]`); answers that number. */
export function migrateObject(storage: DurableObjectStorage, migrations: readonly string[]): number {
  const sql = storage.sql
  sql.exec(`CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`)
  let version = sql.exec<{ version: number }>(`SELECT version FROM schema_version`).toArray()[0]?.version
  if (version === undefined) {
    sql.exec(`INSERT INTO schema_version (version) VALUES (0)`)
    version = 0
  }
  for (let next = version; next < migrations.length; next++) {
    storage.transactionSync(() => {
      sql.exec(migrations[next]!)
      sql.exec(`UPDATE schema_version SET version = ?`, next + 1)
    })
  }
  return migrations.length
}
