-- 0038_coupon_counts: a coupon's redemptions counted on the shared side (issue 38). Redemptions live in each reader's
-- object; the operator's coupon report (`npm run ops -- coupon list`) reads these counters, kept by the readers'
-- `coupon` events (src/features/reader/events.ts): `received` a reader took the coupon (a download or a redemption),
-- `redeemed` its reward was given. Filled here from the redemptions still in D1.
ALTER TABLE coupons ADD COLUMN received_count INTEGER NOT NULL DEFAULT 0 CHECK (received_count >= 0);
ALTER TABLE coupons ADD COLUMN redeemed_count INTEGER NOT NULL DEFAULT 0 CHECK (redeemed_count >= 0);
UPDATE coupons SET
  received_count = (SELECT count(*) FROM coupon_redemptions r WHERE r.coupon_id = coupons.id),
  redeemed_count = (SELECT count(*) FROM coupon_redemptions r WHERE r.coupon_id = coupons.id AND r.used_at IS NOT NULL);
