-- Issue 37 point 2: the readers who follow a creator, a projection of their objects' `follow` events (src/objects/reader/
-- events.server.ts), for the new-episode fan-out: a new episode of a series they made reaches them like a favourite's.
CREATE TABLE creator_followers (
  creator_id   INTEGER NOT NULL REFERENCES creators (id) ON DELETE CASCADE,
  user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  followed_at  TEXT NOT NULL,
  PRIMARY KEY (creator_id, user_id)
) WITHOUT ROWID;
CREATE INDEX creator_followers_user ON creator_followers (user_id);
