-- Alarm centre (issue 13 point 1): one alarm per reader and event. `dedup_key` names the event (e.g. `EPISODE:42`,
-- `QNA:7`); writing the same event twice for a reader hits the unique index and writes nothing. `title` holds
-- the message key and `body` its JSON parameters, so the text is written in the reader's edition when read.
ALTER TABLE alarms ADD COLUMN dedup_key TEXT;
CREATE UNIQUE INDEX alarms_dedup ON alarms (user_id, dedup_key);
CREATE INDEX alarms_unread ON alarms (user_id) WHERE read_at IS NULL;
-- The wait-until-free alarm sweep reads the tickets used in the last month only.
CREATE INDEX wuf_tickets_used ON wuf_tickets (used_at) WHERE used_at IS NOT NULL;
