-- 0010_session_version: immediate end of every session of an account (ASVS 5.0 7.4.1 / 7.4.3).
--
-- Each access token carries the account's session version at issue (claim `sv`). A password change, a password
-- reset and a withdrawal add 1 in the same D1 batch that revokes the account's refresh-token families, so every
-- access token issued before stops working at once (not only when its ≤ 15 minutes are over). Tokens without
-- the claim count as version 0, the starting value.
ALTER TABLE users ADD COLUMN session_version INTEGER NOT NULL DEFAULT 0 CHECK (session_version >= 0);
