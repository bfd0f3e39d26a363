-- 0036_ops_alerts: alerts to the operator (issue 39 point 4; docs/API.md "Operator API" `GET /alerts`). One row per kind
-- of trouble and UTC hour: a webhook refused or failed, a queue message given up (dead-lettered), a cron sweep failed,
-- server errors (5xx). Each occurrence adds one to `count` in one conditional statement; the occurrence that brings the
-- count to the kind's threshold (alerts.ts) mails the edition's `mail.alertsTo`, so at most one mail per kind per hour
-- whatever the number of occurrences at once. `mailed_at`: when that mail was handed to the mail provider. Kept 30 days.
CREATE TABLE ops_alerts (
  kind          TEXT NOT NULL CHECK (kind IN ('webhook', 'dead-letter', 'cron', 'errors')),
  hour          TEXT NOT NULL,                       -- the UTC hour, 2026-12-02T09
  count         INTEGER NOT NULL CHECK (count > 0),
  first_detail  TEXT NOT NULL,                       -- what the first occurrence of the hour said
  last_detail   TEXT NOT NULL,
  last_at       TEXT NOT NULL,
  mailed_at     TEXT,
  PRIMARY KEY (kind, hour)
) WITHOUT ROWID;
CREATE INDEX ops_alerts_last ON ops_alerts (last_at);
