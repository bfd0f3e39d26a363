-- 0019_hidden_series: the discreet library (issue 12 point 5). A row means the reader keeps the series out of
-- their own lists (/library/my, /library/favorite, /library/recent, home's continue-reading row); nothing else
-- changes: purchases, ownerships, progress and favourites stay as they are. Read through `notHidden` /
-- `isHidden` in src/features/library/hidden.server.ts.
CREATE TABLE hidden_series (
  user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  series_id   INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (user_id, series_id)
);
CREATE INDEX hidden_series_user_recent ON hidden_series (user_id, created_at);
