-- 0025: a series being imported through the operator API (docs/API.md "Operator API", `npm run ops -- import`):
-- the import request (manifest and probed image sizes, JSON) the finish step writes the rows from, and the claim
-- `finishing_at` that lets exactly one finish call write them. The row goes with the series (finish deletes it when
-- it publishes the series; an abort deletes the series).
CREATE TABLE series_imports (
  series_id     INTEGER PRIMARY KEY REFERENCES series (id) ON DELETE CASCADE,
  request       TEXT NOT NULL,
  finishing_at  TEXT,
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
