-- 0024: the retention sweep deletes operator notices 30 days after `created_at` (docs/SCALE.md "Retention") through
-- this index, like every retention statement.
CREATE INDEX alarm_broadcasts_created ON alarm_broadcasts (created_at);
