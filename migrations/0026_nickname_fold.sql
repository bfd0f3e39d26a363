-- 0026_nickname_fold: nicknames are unique as a reader sees them (issue 34 point 6): `nickname_key` is now
-- `nicknameKey` of src/features/account/profile.ts version 2 (NFKC, invisible characters dropped, lower case,
-- Unicode's confusables skeleton). SQL cannot compute it: rows keyed by an older version are re-keyed by the cron
-- (`rekeyNicknames`), the oldest account keeping a key two nicknames now share.
ALTER TABLE users ADD COLUMN nickname_key_version INTEGER NOT NULL DEFAULT 1;
CREATE INDEX users_nickname_rekey ON users (id) WHERE nickname IS NOT NULL AND nickname_key_version < 2;
