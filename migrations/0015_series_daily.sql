-- 0015_series_daily: the ranking without rescans (issue 24 point 4). Counts per series per UTC day, kept as the
-- reads and purchases are written, so the cron (src/features/catalogue/ranking.server.ts) sums at most 30 rows
-- per series instead of recounting 30 days of reading_progress and purchases.
--
-- readers: reading_progress rows (one per reader and series) whose updated_at falls on `day`, the same thing
--   the ranking always counted ("readers whose last read of the series is in the window"). A reader is counted
--   once, on the day of their latest read: moving updated_at to another day moves the count from the old day
--   to the new one, so the sum over the window equals the recount and never counts a reader twice.
-- purchases: purchases rows whose created_at falls on `day` (every type, as before).
--
-- Kept by the triggers below, in the statement that writes the read or the purchase (every writer, the seed and
-- imports included; no writer can forget them). A save on the same day as the previous one changes no counter.
-- reading_progress must be written with ON CONFLICT DO UPDATE, never INSERT OR REPLACE (a replace's implicit
-- delete fires no trigger: the reader would be counted twice).
-- The cron deletes rows older than the window.
CREATE TABLE series_daily (
  day        TEXT NOT NULL,                             -- YYYY-MM-DD, UTC (the timestamps' own date)
  series_id  INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
  readers    INTEGER NOT NULL DEFAULT 0,
  purchases  INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, series_id)
) WITHOUT ROWID;

CREATE TRIGGER series_daily_read_insert AFTER INSERT ON reading_progress
BEGIN
  INSERT INTO series_daily (day, series_id, readers) VALUES (substr(NEW.updated_at, 1, 10), NEW.series_id, 1)
    ON CONFLICT (day, series_id) DO UPDATE SET readers = readers + 1;
END;

CREATE TRIGGER series_daily_read_move AFTER UPDATE OF updated_at, series_id ON reading_progress
WHEN substr(OLD.updated_at, 1, 10) <> substr(NEW.updated_at, 1, 10) OR OLD.series_id <> NEW.series_id
BEGIN
  UPDATE series_daily SET readers = readers - 1
    WHERE day = substr(OLD.updated_at, 1, 10) AND series_id = OLD.series_id AND readers > 0;
  INSERT INTO series_daily (day, series_id, readers) VALUES (substr(NEW.updated_at, 1, 10), NEW.series_id, 1)
    ON CONFLICT (day, series_id) DO UPDATE SET readers = readers + 1;
END;

CREATE TRIGGER series_daily_read_delete AFTER DELETE ON reading_progress
BEGIN
  UPDATE series_daily SET readers = readers - 1
    WHERE day = substr(OLD.updated_at, 1, 10) AND series_id = OLD.series_id AND readers > 0;
END;

CREATE TRIGGER series_daily_purchase AFTER INSERT ON purchases
BEGIN
  INSERT INTO series_daily (day, series_id, purchases) VALUES (substr(NEW.created_at, 1, 10), NEW.series_id, 1)
    ON CONFLICT (day, series_id) DO UPDATE SET purchases = purchases + 1;
END;

-- Existing activity of the last 31 days (the window is the last 30 UTC days).
INSERT INTO series_daily (day, series_id, readers)
  SELECT substr(updated_at, 1, 10), series_id, COUNT(*) FROM reading_progress
  WHERE updated_at >= strftime('%Y-%m-%d', 'now', '-31 days') GROUP BY 1, 2;
INSERT INTO series_daily (day, series_id, purchases)
  SELECT substr(created_at, 1, 10), series_id, COUNT(*) FROM purchases
  WHERE created_at >= strftime('%Y-%m-%d', 'now', '-31 days') GROUP BY 1, 2
  ON CONFLICT (day, series_id) DO UPDATE SET purchases = excluded.purchases;
