-- Issue 39 point 9: who used a coupon, for `npm run ops -- coupon report --id N`. A projection of the readers' `coupon`
-- events (src/features/reader/events.server.ts), applied once each in the same guarded batch as the coupon's counters:
-- when the reader took the coupon and when its reward was given, as the shared side learnt them (within seconds).
-- Coupons taken before this table existed are in the counters only.
CREATE TABLE coupon_readers (
  coupon_id    INTEGER NOT NULL,
  user_id      INTEGER NOT NULL,
  received_at  TEXT,
  redeemed_at  TEXT,
  PRIMARY KEY (coupon_id, user_id)
) WITHOUT ROWID;
CREATE INDEX coupon_readers_newest ON coupon_readers (coupon_id, received_at);
-- the retention sweep's (src/features/retention/retention.ts: a year after the reader took the coupon)
CREATE INDEX coupon_readers_received ON coupon_readers (received_at);
