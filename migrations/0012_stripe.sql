-- 0011_stripe: what a payment caused, and what its reversal left (issue 20).
--
-- Every lot a paid charge creates (its coins, its bonus, and the reward of a top-up coupon it triggered) carries
-- the payment's id, so a refund or a chargeback finds all of them. Lots created before this column stay linked
-- by source = 'PAYMENT' AND ref = payment id.
ALTER TABLE coin_lots ADD COLUMN payment_id TEXT REFERENCES payments (id);
CREATE INDEX coin_lots_payment ON coin_lots (payment_id) WHERE payment_id IS NOT NULL;

-- One row per payment whose coins were taken back (the reader's 7-day refund, a refund made at the provider, a
-- dispute). The primary key makes a reversal happen once whatever the number of events; `debt` counts the coins
-- of the payment the reader had already spent (never a negative lot): the reader sees it in the shop.
CREATE TABLE payment_reversals (
  payment_id  TEXT PRIMARY KEY REFERENCES payments (id),
  user_id     INTEGER NOT NULL REFERENCES users (id),
  reason      TEXT NOT NULL CHECK (reason IN ('REFUND', 'PROVIDER_REFUND', 'DISPUTE')),
  debt        INTEGER NOT NULL DEFAULT 0 CHECK (debt >= 0),
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX payment_reversals_debt ON payment_reversals (user_id) WHERE debt > 0;
