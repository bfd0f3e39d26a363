-- 0031: an upload into a running series through the operator API (docs/API.md "Operator API"): a new episode
-- (`npm run ops -- episode add`, kind EPISODE: the episode row exists, unpublished, from the start, so its number is
-- reserved by UNIQUE (series_id, no); `request` holds its slices' sizes, alt texts, transcripts and publication time)
-- or a replaced slice (`episode replace-slice`, kind SLICE: `request` holds the slice's position, new R2 prefix and
-- size). One open upload per episode; `finishing_at` lets exactly one finish call write it. The row goes with the
-- episode (an aborted new episode is deleted) or when the upload finishes.
CREATE TABLE episode_uploads (
  episode_id    INTEGER PRIMARY KEY REFERENCES episodes (id) ON DELETE CASCADE,
  kind          TEXT NOT NULL CHECK (kind IN ('EPISODE', 'SLICE')),
  request       TEXT NOT NULL,
  finishing_at  TEXT,
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- The R2 prefixes of replaced slices, kept until `delete_after`: pages edge-cached before the replacement (a minute)
-- and signed URLs issued before it (15 minutes) still name them; the cron deletes their renditions then.
CREATE TABLE media_retired (
  prefix        TEXT PRIMARY KEY,
  delete_after  TEXT NOT NULL
);
