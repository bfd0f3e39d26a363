/**
 * The schema of a reader's Durable Object (issue 38; docs/ARCHITECTURE.md "Reader objects"): its own migrations,
 * applied inside the object when it starts (before any call reaches it), each in one transaction with the version
 * it leads to. Like migrations/*.sql for D1: append, never edit one that has shipped.
 */

/** Migration n + 1 is READER_MIGRATIONS[n]; `schema_version` holds the number applied. */
const READER_MIGRATIONS: readonly string[] = [
  // 1: reading progress (one row per series), the outbox to the shared side, the object's own facts
  `CREATE TABLE progress (
     series_id   INTEGER PRIMARY KEY,
     episode_id  INTEGER NOT NULL,
     episode_no  INTEGER NOT NULL,
     position    REAL NOT NULL CHECK (position >= 0 AND position <= 1),
     updated_at  TEXT NOT NULL
   );
   CREATE INDEX progress_recent ON progress (updated_at, series_id);
   CREATE TABLE outbox (
     seq   INTEGER PRIMARY KEY AUTOINCREMENT,
     id    TEXT NOT NULL UNIQUE,
     body  TEXT NOT NULL
   );
   CREATE TABLE facts (
     key    TEXT PRIMARY KEY,
     value  TEXT NOT NULL
   );`,
  // 2: favourites and hidden series (library/marks.server.ts), one row per series the reader marked
  `CREATE TABLE marks (
     series_id    INTEGER PRIMARY KEY,
     favorite_at  TEXT,
     hidden_at    TEXT
   );
   CREATE INDEX marks_favorite ON marks (favorite_at, series_id) WHERE favorite_at IS NOT NULL;
   CREATE INDEX marks_hidden ON marks (hidden_at, series_id) WHERE hidden_at IS NOT NULL;`,
  // 3: sessions (auth/session-store.server.ts): one row per session (refresh-token family) and per refresh token
  `CREATE TABLE sessions (
     id           TEXT PRIMARY KEY,
     version      INTEGER NOT NULL,
     client_kind  TEXT NOT NULL,
     ip_address   TEXT,
     created_at   TEXT NOT NULL,
     ended_at     TEXT
   );
   CREATE TABLE refresh_tokens (
     token_hash  TEXT PRIMARY KEY,
     session_id  TEXT NOT NULL REFERENCES sessions (id),
     created_at  TEXT NOT NULL,
     expires_at  TEXT NOT NULL,
     rotated_at  TEXT
   ) WITHOUT ROWID;
   CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);
   CREATE INDEX refresh_tokens_expiry ON refresh_tokens (expires_at);`,
  // 4: the shipping address (payment/address-store.server.ts), one row at most
  `CREATE TABLE address (
     id          INTEGER PRIMARY KEY CHECK (id = 1),
     name        TEXT NOT NULL,
     city        TEXT NOT NULL,
     zip_code    TEXT NOT NULL,
     address1    TEXT NOT NULL,
     address2    TEXT,
     phone       TEXT NOT NULL,
     country     TEXT NOT NULL,
     updated_at  TEXT NOT NULL
   );`,
  // 5: the alarm centre (alarm/alarm-store.server.ts), one row per event through its dedup key
  `CREATE TABLE alarms (
     id          INTEGER PRIMARY KEY AUTOINCREMENT,
     kind        TEXT NOT NULL,
     title       TEXT NOT NULL,
     body        TEXT NOT NULL,
     link        TEXT,
     dedup_key   TEXT NOT NULL UNIQUE,
     created_at  TEXT NOT NULL,
     read_at     TEXT,
     pushed_at   TEXT
   );
   CREATE INDEX alarms_newest ON alarms (created_at, id);
   CREATE INDEX alarms_unread ON alarms (created_at) WHERE read_at IS NULL;`,
]

/** Brings the object's SQLite to the last migration; answers the version it is at. */
export function migrateReader(storage: DurableObjectStorage): number {
  const sql = storage.sql
  sql.exec(`CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`)
  let version = sql.exec<{ version: number }>(`SELECT version FROM schema_version`).toArray()[0]?.version
  if (version === undefined) {
    sql.exec(`INSERT INTO schema_version (version) VALUES (0)`)
    version = 0
  }
  for (let next = version; next < READER_MIGRATIONS.length; next++) {
    storage.transactionSync(() => {
      sql.exec(READER_MIGRATIONS[next]!)
      sql.exec(`UPDATE schema_version SET version = ?`, next + 1)
    })
  }
  return READER_MIGRATIONS.length
}
