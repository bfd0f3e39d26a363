/**
 * The seed's forced wipe (`npm run ops -- reseed`, `scripts/seed.ts --force`) on a local state that a run has used:
 * every migration applied in SQLite with foreign keys on (as D1 enforces them), then what a local payment leaves in
 * D1 once the reader's money rows are in their object (the payment's index row and its conversion record), then the
 * wipe, which must go through.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { wipeStatements } from './data.ts'

const MIGRATIONS = fileURLToPath(new URL('../../migrations/', import.meta.url))

describe('the forced wipe of the seed', () => {
  it("goes through when a local payment left its conversion record (the payment's index row goes with its user)", () => {
    const db = new DatabaseSync(':memory:')
    for (const file of readdirSync(MIGRATIONS)
      .filter((f) => f.endsWith('.sql'))
      .sort())
      db.exec(readFileSync(join(MIGRATIONS, file), 'utf8'))
    db.exec('PRAGMA foreign_keys = ON')
    db.exec(`INSERT INTO users (id, email) VALUES (1, 'reader@example.com')`)
    db.exec(`INSERT INTO payment_readers (payment_id, provider, user_id) VALUES ('pay_local_1', 'local', 1)`)
    db.exec(
      `INSERT INTO conversion_events (provider, payment_id, action, currency, value) VALUES ('local', 'pay_local_1', 'Purchase', 'EUR', 499)`,
    )
    for (const sql of wipeStatements()) db.exec(sql)
    expect(
      db
        .prepare(
          `SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM payment_readers) + (SELECT count(*) FROM conversion_events) AS n`,
        )
        .get(),
    ).toEqual({ n: 0 })
  })
})
