-- 0004_wallet: wait-until-free slots, gift lookups, payment refunds and the conversion outbox (issue 4).

-- Wait-until-free (spec §4): a reader's ticket for a series is "the one available at available_at"; two
-- concurrent uses compute the same slot, so this index lets exactly one of them commit.
CREATE UNIQUE INDEX wuf_tickets_slot ON wuf_tickets (user_id, series_id, available_at);

-- The gift box lists a reader's gifts newest first, unused ones on top.
CREATE INDEX gifts_user_unused ON gifts (user_id, used_at, given_at);

-- Refund of unused paid coins within 7 days (spec §9): when it happened.
ALTER TABLE payments ADD COLUMN refunded_at TEXT;

-- Conversion calls (spec §7 POST /third-party/facebook/conversion) recorded by the local provider, one per
-- paid payment (a replayed webhook records nothing twice).
CREATE TABLE conversion_events (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  provider     TEXT NOT NULL,                           -- 'local', 'facebook'
  payment_id   TEXT NOT NULL REFERENCES payments (id),
  action       TEXT NOT NULL,                           -- 'Purchase'
  action_url   TEXT,
  currency     TEXT NOT NULL CHECK (length(currency) = 3),
  value        INTEGER NOT NULL CHECK (value >= 0),     -- minor units
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (provider, payment_id)
);
