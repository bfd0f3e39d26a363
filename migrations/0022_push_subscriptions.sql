-- 0022_push_subscriptions: Web Push (issue 13 point 2, docs/API.md "Web Push"). One row per browser push endpoint
-- (RFC 8030), tied to the reader who subscribed on that device last: subscribing the same endpoint again (another
-- reader signing in on the device, or new keys) updates the row. Turning push off, a 404/410 from the push service
-- and the reader's deletion remove it.
CREATE TABLE push_subscriptions (
  id          INTEGER PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint    TEXT NOT NULL UNIQUE,
  p256dh      TEXT NOT NULL,     -- the browser's P-256 public key, base64url (RFC 8291)
  auth        TEXT NOT NULL,     -- the 16-byte authentication secret, base64url
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
