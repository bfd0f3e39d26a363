-- 0035_alarm_deliveries: the alarm centre moves into each reader's Durable Object (issue 38; docs/ARCHITECTURE.md
-- "Alarms"). alarms stays only as the source of the move: an object takes its reader's rows on first use (the cron moves
-- the others) and deletes them here; nothing in the worker writes it any more but the demo's seed.
--
-- alarm_deliveries records, for the events the cron finds in shared tables (rentals ending, tickets ready, coins
-- expiring, gifts arrived, support answers, comment replies), that the reader's object took the alarm: written after
-- the object's answer, so a delivery cut off in between is made again (the object keeps one alarm per dedup key), and
-- read by the next sweep, which moves on to events not yet delivered. A fan-out (new episode, operator's notice) walks
-- its readers in id order and needs no record. Kept as long as the alarms (ALARM_KEEP_MS).
CREATE TABLE alarm_deliveries (
  user_id     INTEGER NOT NULL,
  dedup_key   TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  PRIMARY KEY (user_id, dedup_key)
) WITHOUT ROWID;
CREATE INDEX alarm_deliveries_created ON alarm_deliveries (created_at);
-- The sweep's ways to the support answers and comment replies of the last hour (their alarm is delivered at once; the
-- sweep delivers one whose reader's object could not take it then).
CREATE INDEX qnas_answered ON qnas (answered_at) WHERE user_id IS NOT NULL;
CREATE INDEX comments_replies ON comments (created_at) WHERE parent_id IS NOT NULL;
