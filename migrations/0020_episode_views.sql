-- 0020_episode_views: real view counts (issue 12 point 9, docs/SCALE.md "Retention", docs/API.md "View counts").
-- A signed-in reader's open of an episode they may read counts one view per UTC day: openEpisode
-- (src/features/viewer/viewer.server.ts) inserts (day, episode, reader) in its own batch with ON CONFLICT DO
-- NOTHING, so a second open the same day inserts nothing and the trigger below does not fire. Guests are not counted
-- (their free pages come from the edge cache; docs/API.md "View counts").
-- A row matters only during its day: the retention sweep deletes it once the day has ended (the primary key, which
-- starts with `day`, is the index the sweep walks). No foreign key: a row lives a day, and none would cost a check.
CREATE TABLE episode_views (
  day         TEXT NOT NULL,     -- YYYY-MM-DD, UTC
  episode_id  INTEGER NOT NULL,
  user_id     INTEGER NOT NULL,
  PRIMARY KEY (day, episode_id, user_id)
);

-- The counters every page reads (episodes.view_count, series.view_count: the detail page, the viewcount route and
-- the ranking's tie-break), kept in the statement that counted the view.
CREATE TRIGGER episode_views_count AFTER INSERT ON episode_views
BEGIN
  UPDATE episodes SET view_count = view_count + 1 WHERE id = NEW.episode_id;
  UPDATE series SET view_count = view_count + 1 WHERE id = (SELECT series_id FROM episodes WHERE id = NEW.episode_id);
END;
