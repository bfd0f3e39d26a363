-- 0028_library_marks: favourites and hidden series move into each reader's Durable Object (issue 38; docs/ARCHITECTURE.md
-- "Reader objects"). favorites and hidden_series stay only as the source of the move: an object takes its reader's rows
-- on first use (and the cron moves the others), then deletes them here. Nothing in the worker writes them any more but
-- the demo's seed, whose rows are moved the same way.
--
-- library_marks is the shared side's copy, for what fans out over readers (a new episode to those who favourited its
-- series, an operator's notice, rentals ending, tickets ready: none to a series its reader hid). The object sends a row's
-- whole state with a version of its own (an event `marks`, src/features/reader/events.server.ts); an older version never
-- overwrites a newer one, so deliveries may repeat and come in any order. A row both unmarked stays as that version's
-- record (one per reader and series ever marked).
CREATE TABLE library_marks (
  user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  series_id  INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
  favorite   INTEGER NOT NULL CHECK (favorite IN (0, 1)),
  hidden     INTEGER NOT NULL CHECK (hidden IN (0, 1)),
  version    INTEGER NOT NULL,                        -- the object's counter at this state; 0: copied from the tables above
  PRIMARY KEY (user_id, series_id)
) WITHOUT ROWID;
CREATE INDEX library_marks_followers ON library_marks (series_id, user_id) WHERE favorite = 1 AND hidden = 0;

INSERT INTO library_marks (user_id, series_id, favorite, hidden, version)
  SELECT user_id, series_id, 1, 0, 0 FROM favorites WHERE 1
  ON CONFLICT DO NOTHING;
INSERT INTO library_marks (user_id, series_id, favorite, hidden, version)
  SELECT user_id, series_id, 0, 1, 0 FROM hidden_series WHERE 1
  ON CONFLICT (user_id, series_id) DO UPDATE SET hidden = 1;

-- rows the seed (or a fixture) still writes to the old tables reach the copy at once, as the move would
CREATE TRIGGER library_marks_favorite_seed AFTER INSERT ON favorites
BEGIN
  INSERT INTO library_marks (user_id, series_id, favorite, hidden, version) VALUES (NEW.user_id, NEW.series_id, 1, 0, 0)
    ON CONFLICT (user_id, series_id) DO UPDATE SET favorite = 1 WHERE version = 0;
END;
CREATE TRIGGER library_marks_hidden_seed AFTER INSERT ON hidden_series
BEGIN
  INSERT INTO library_marks (user_id, series_id, favorite, hidden, version) VALUES (NEW.user_id, NEW.series_id, 0, 1, 0)
    ON CONFLICT (user_id, series_id) DO UPDATE SET hidden = 1 WHERE version = 0;
END;
