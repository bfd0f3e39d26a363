-- Issue 37 point 3: an episode's likes. Each reader's like is kept in their own object (src/features/like/likes.server.ts);
-- its `like` event reaches the series' tally, which adds the sums to this count in its flush (no write per like).
ALTER TABLE episodes ADD COLUMN like_count INTEGER NOT NULL DEFAULT 0;
