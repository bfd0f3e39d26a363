-- 0041_series_readers_recent: a series' readers, for an operator's notice to them, are those who read it in the last
-- 30 days (src/features/retention/retention.ts `series_readers`; favourites are reached through library_marks
-- whatever their age). Kept for good, the table grew by a row per reader and series started, about 1.9 KB a reader
-- after 3 years: 19 GB at 10 M readers (docs/SCALE.md). `read_on` is the UTC day of the reader's latest read of the
-- series (the `read` event of their object); rows already here count as read today.
ALTER TABLE series_readers ADD COLUMN read_on TEXT;
UPDATE series_readers SET read_on = strftime('%Y-%m-%d', 'now');
CREATE INDEX series_readers_read_on ON series_readers (read_on);

-- the demo's seed still writes reading_progress rows (moved into readers' objects on first use)
DROP TRIGGER series_readers_seed;
CREATE TRIGGER series_readers_seed AFTER INSERT ON reading_progress
BEGIN
  INSERT INTO series_readers (series_id, user_id, read_on) VALUES (NEW.series_id, NEW.user_id, substr(NEW.updated_at, 1, 10))
    ON CONFLICT DO UPDATE SET read_on = max(read_on, excluded.read_on);
END;
