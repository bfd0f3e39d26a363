-- 0033: comment moderation (issue 39 point 7; docs/API.md "Operator API" `/api/ops/comments/*`, `npm run ops -- comments …`).
-- A reader's report (comment_reactions kind REPORT) stays open until an operator reviews the comment: hiding it (state
-- BLOCK: gone from readers' lists and counts) or restoring it (state null) marks its open reports reviewed
-- (`reviewed_at`). From then on only new reports count towards the third report that hides a comment (BLIND).
ALTER TABLE comment_reactions ADD COLUMN reviewed_at TEXT;
CREATE INDEX comment_reactions_open_reports ON comment_reactions (comment_id) WHERE kind = 'REPORT' AND reviewed_at IS NULL;

-- A reader blocked from commenting by an operator until `until` (`comments block|unblock`): one row per reader, the
-- latest block (an unblock sets `until` to its own time, so the row stays as the record of the last block). The
-- reason is shown to the reader above the comment form. Kept: one row per reader at most (docs/SCALE.md "Retention").
CREATE TABLE comment_bans (
  user_id     INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  until       TEXT NOT NULL,
  reason      TEXT NOT NULL,
  created_by  TEXT NOT NULL,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
