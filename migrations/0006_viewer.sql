-- Viewer (issue 6): continuous reading with automatic unlocking of the next episode, opt-in per series
-- (spec §1 "continuous reading with automatic coin deduction"). A row means the reader confirmed it for the
-- series; the coins spent under it are derived from `purchases` (idempotency keys `viewer-auto:…` created
-- since `enabled_at`), never stored twice.
CREATE TABLE auto_unlock (
  user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  series_id   INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
  budget      INTEGER NOT NULL CHECK (budget BETWEEN 1 AND 10000),   -- coin cap of the automatic unlocks
  kind        TEXT NOT NULL DEFAULT 'RENT' CHECK (kind IN ('RENT', 'POSSESSION')),
  enabled_at  TEXT NOT NULL,
  PRIMARY KEY (user_id, series_id)
);
