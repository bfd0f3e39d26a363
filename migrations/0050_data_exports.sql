-- Issue 37 point 6: a reader's exports of their own data (GDPR Art. 20), one per reader and edition day (the unique
-- index decides it in the request's one INSERT); the files live in R2 under `exports/` for 24 hours after they are
-- ready, then the sweep deletes them and marks the row EXPIRED.
CREATE TABLE data_exports (
  id            TEXT PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  day           TEXT NOT NULL,
  status        TEXT NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'READY', 'EXPIRED')),
  requested_at  TEXT NOT NULL,
  ready_at      TEXT,
  expires_at    TEXT
);
CREATE UNIQUE INDEX data_exports_once ON data_exports (user_id, day);
CREATE INDEX data_exports_due ON data_exports (expires_at) WHERE status = 'READY';
