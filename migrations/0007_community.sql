-- Community (spec §3 comment states, §5 comments and contact form, §7 comment/reaction/reply/block-user, qna).
-- The comments, comment_reactions, user_blocks, banned_words and qnas tables come from 0001; this adds the
-- counters the lists show and the indexes of their two orders (newest, best) per series or episode.

ALTER TABLE comments ADD COLUMN dislike_count INTEGER NOT NULL DEFAULT 0 CHECK (dislike_count >= 0);
ALTER TABLE comments ADD COLUMN report_count INTEGER NOT NULL DEFAULT 0 CHECK (report_count >= 0);

CREATE INDEX comments_scope_newest ON comments (series_id, episode_id, parent_id, id DESC);
CREATE INDEX comments_scope_best ON comments (series_id, episode_id, parent_id, like_count DESC, id DESC);
CREATE INDEX comments_user_id ON comments (user_id, id DESC);
CREATE INDEX user_blocks_blocked ON user_blocks (blocked_user_id);
CREATE INDEX qnas_user_id ON qnas (user_id, id DESC);
