-- 0017_nickname: one nickname per reader and edition, whatever its case (issue 12 point 2, spec §7 PUT /user
-- action PROFILE). `nickname_key` is the nickname as `nicknameKey` (src/features/account/profile.ts) folds it
-- (NFKC, lower case, which SQLite's lower() cannot do beyond ASCII); the unique index is what refuses a taken
-- nickname, in the same statement that sets it, however many readers ask for it at once.
ALTER TABLE users ADD COLUMN nickname_key TEXT;
-- nicknames set before this migration: the oldest account keeps a shared one (ASCII case only, the best SQL can do)
UPDATE users SET nickname_key = lower(trim(nickname))
 WHERE nickname IS NOT NULL AND trim(nickname) <> '' AND deleted_at IS NULL
   AND id = (SELECT MIN(u.id) FROM users u WHERE lower(trim(u.nickname)) = lower(trim(users.nickname)) AND u.deleted_at IS NULL);
CREATE UNIQUE INDEX users_nickname_key ON users (nickname_key) WHERE nickname_key IS NOT NULL;
