-- 0023_alarm_queue: alarms fan out through Cloudflare Queues (issue 13 point 3, docs/ARCHITECTURE.md "Alarms").
-- `episodes.announced_at`: when the episode's fan-out was handed to the queue (claimed once, by the cron at its
-- published_at or by the operator's publish). `alarms.pushed_at`: when the alarm's push was claimed by the
-- consumer (a message delivered twice pushes once). `alarm_broadcasts`: an operator's notice to everyone or to
-- the readers of one series (`npm run ops -- alarm send`).
ALTER TABLE episodes ADD COLUMN announced_at TEXT;
ALTER TABLE alarms ADD COLUMN pushed_at TEXT;
CREATE TABLE alarm_broadcasts (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  text        TEXT NOT NULL,
  link        TEXT,
  series_id   INTEGER REFERENCES series (id) ON DELETE CASCADE,  -- NULL: every reader
  reason      TEXT NOT NULL,                                      -- the operator's reason
  created_at  TEXT NOT NULL
);
-- the fan-outs read a series' readers in user order
CREATE INDEX favorites_series ON favorites (series_id, user_id);
CREATE INDEX reading_progress_series_user ON reading_progress (series_id, user_id);
-- episodes published and not yet announced (the cron's claim)
CREATE INDEX episodes_unannounced ON episodes (published_at) WHERE announced_at IS NULL;
