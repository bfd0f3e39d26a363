-- 0027_reader_objects: reading progress moves into each reader's Durable Object (issue 38; docs/ARCHITECTURE.md
-- "Reader objects"). reading_progress stays only as the source of the move: an object takes its reader's rows on first
-- use (and the cron moves the others), then deletes them here. Nothing in the worker writes it any more but the demo's
-- seed, whose rows are moved the same way.
--
-- What the shared side still needs from reading comes from the object's outbox, through the edition's queue
-- (src/features/reader/events.server.ts):
--   series_daily.readers  moved from one day to another by a `read` event (what the UPDATE trigger did);
--   series_readers        who read a series, for an operator's notice to its readers (was a scan of reading_progress);
--   reader_events         the events already applied, so a delivery made twice counts once (kept 7 days).
-- A moved row was counted when it was written here, and its move changes no counter: the UPDATE and DELETE triggers go.
DROP TRIGGER series_daily_read_move;
DROP TRIGGER series_daily_read_delete;

CREATE TABLE series_readers (
  series_id  INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
  user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (series_id, user_id)
) WITHOUT ROWID;

INSERT INTO series_readers (series_id, user_id) SELECT series_id, user_id FROM reading_progress WHERE 1
  ON CONFLICT DO NOTHING;

CREATE TRIGGER series_readers_seed AFTER INSERT ON reading_progress
BEGIN
  INSERT INTO series_readers (series_id, user_id) VALUES (NEW.series_id, NEW.user_id) ON CONFLICT DO NOTHING;
END;

CREATE TABLE reader_events (
  id  TEXT PRIMARY KEY,                               -- the event's id, made by the reader's object
  at  TEXT NOT NULL                                   -- when it was applied
);
CREATE INDEX reader_events_at ON reader_events (at);
