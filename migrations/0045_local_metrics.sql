-- Issue 39 point 3: the daily report's sums in a local run (src/features/operator/metrics.server.ts). A deployed
-- edition writes each figure to Workers Analytics Engine, which keeps nothing locally; there this table stays empty.
CREATE TABLE local_metrics (
  day   TEXT NOT NULL,
  name  TEXT NOT NULL,
  key   TEXT NOT NULL DEFAULT '',
  count INTEGER NOT NULL,
  total REAL NOT NULL,
  PRIMARY KEY (day, name, key)
) WITHOUT ROWID;
