-- 0038_money_in_objects: the shared side of readers' money once it lives in each reader's Durable Object (issue 38;
-- docs/ARCHITECTURE.md "Reader objects").
--
-- A coupon's redemptions are counted here for the operator's coupon report (`npm run ops -- coupon list`), kept by the
-- readers' `coupon` events (src/features/reader/events.ts): `received_count` a reader took the coupon (a download or a
-- redemption), `redeemed_count` its reward was given. Filled from the redemptions still in D1.
ALTER TABLE coupons ADD COLUMN received_count INTEGER NOT NULL DEFAULT 0 CHECK (received_count >= 0);
ALTER TABLE coupons ADD COLUMN redeemed_count INTEGER NOT NULL DEFAULT 0 CHECK (redeemed_count >= 0);
UPDATE coupons SET
  received_count = (SELECT count(*) FROM coupon_redemptions r WHERE r.coupon_id = coupons.id),
  redeemed_count = (SELECT count(*) FROM coupon_redemptions r WHERE r.coupon_id = coupons.id AND r.used_at IS NOT NULL);

-- A conversion record names its payment through the shared index (0037), not D1's `payments`, whose rows move out.
CREATE TABLE conversion_events_new (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  provider     TEXT NOT NULL,
  payment_id   TEXT NOT NULL REFERENCES payment_readers (payment_id),
  action       TEXT NOT NULL,
  action_url   TEXT,
  currency     TEXT NOT NULL CHECK (length(currency) = 3),
  value        INTEGER NOT NULL CHECK (value >= 0),
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (provider, payment_id)
);
INSERT INTO conversion_events_new SELECT id, provider, payment_id, action, action_url, currency, value, created_at FROM conversion_events;
DROP TABLE conversion_events;
ALTER TABLE conversion_events_new RENAME TO conversion_events;
CREATE INDEX conversion_events_payment ON conversion_events (payment_id);

-- A refund asked (its coins about to leave the reader's wallet) and not settled yet: the cron finds a refund a stopped
-- worker left half done through this mark (`settleRefunds`), set before the reader's batch and cleared once the
-- provider's answer is recorded. Marked here: the refunds D1 still holds that wait for their answer.
ALTER TABLE payment_readers ADD COLUMN refund_asked_at TEXT;
CREATE INDEX payment_readers_refund ON payment_readers (refund_asked_at) WHERE refund_asked_at IS NOT NULL;
UPDATE payment_readers SET refund_asked_at = (
  SELECT r.created_at FROM payments p JOIN payment_reversals r ON r.payment_id = p.id
   WHERE p.id = payment_readers.payment_id AND p.state = 'REFUNDED' AND p.refunded_at IS NULL AND r.reason = 'REFUND')
 WHERE payment_id IN (SELECT id FROM payments WHERE state = 'REFUNDED' AND refunded_at IS NULL);
