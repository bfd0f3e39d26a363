-- Issue 38, counting outside D1: views, the ranking's daily readers and purchases are counted in each series' own
-- Durable Object (src/features/catalogue/tally.server.ts), which adds what it counted to these counters in one D1
-- batch per series and flush (TALLY_FLUSH_MS), not in a write per event. `tally_flush` is the number of the series'
-- last flush applied: every statement of a flush is guarded by its number being past it, so a flush sent twice
-- counts once. A reader's view of an episode is decided once per UTC day in the reader's own object (reader
-- migration 7), so the day's view rows of migration 0020 and their trigger go.
ALTER TABLE series ADD COLUMN tally_flush INTEGER NOT NULL DEFAULT 0;
DROP TRIGGER episode_views_count;
DROP TABLE episode_views;
