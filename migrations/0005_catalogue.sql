-- Catalogue (issue 5): the ranking aggregate behind /home/ranking and every POPULAR list.
--
-- One row per series, refreshed from real activity (src/features/catalogue/ranking.server.ts):
-- readers = reading_progress rows touched in the window, purchases = purchases made in the window,
-- views = the series' lifetime view counter. `score` is copied into series.rank_score, which every
-- ranked list (and its indexes) orders by.
CREATE TABLE series_ranking (
  series_id     INTEGER PRIMARY KEY REFERENCES series (id) ON DELETE CASCADE,
  readers       INTEGER NOT NULL DEFAULT 0 CHECK (readers >= 0),
  purchases     INTEGER NOT NULL DEFAULT 0 CHECK (purchases >= 0),
  views         INTEGER NOT NULL DEFAULT 0 CHECK (views >= 0),
  score         INTEGER NOT NULL DEFAULT 0,
  refreshed_at  TEXT NOT NULL
);
CREATE INDEX series_ranking_score ON series_ranking (score DESC, series_id);

-- The refresh counts per series inside a time window: these keep it to index range scans.
CREATE INDEX reading_progress_series_recent ON reading_progress (series_id, updated_at);
CREATE INDEX purchases_series_recent ON purchases (series_id, created_at);

-- Tag top 10 (tags.search_count, bumped by searches for a tag) reads in this order.
CREATE INDEX tags_search_count ON tags (search_count DESC, id);
