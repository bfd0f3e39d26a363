-- 0029_library_marks_cleared: when a row of library_marks (0028) became neither favourite nor hidden, so the retention
-- sweep can delete it (src/features/retention/retention.ts) once no late delivery of an older state can still arrive.
-- NULL while the row holds a mark.
ALTER TABLE library_marks ADD COLUMN cleared_at TEXT;
CREATE INDEX library_marks_cleared ON library_marks (cleared_at) WHERE cleared_at IS NOT NULL;
