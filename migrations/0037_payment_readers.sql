-- 0037_payment_readers: which reader a payment belongs to, on the shared side (issue 38; docs/ARCHITECTURE.md "Reader
-- objects"). A provider's webhook names the payment (or, for a refund or dispute made at the provider, its own
-- reference) and no reader; once payments live in each reader's object, this index is how a webhook finds the object
-- whose money batch it runs. `createCharge` writes the row before the reader's batch that records the payment (a row
-- whose payment was never recorded leads a webhook to no payment: refused as unknown, as before). `provider_ref` is
-- the provider's reference of a paid payment and `credited_at` when the shared part of its credit (the product's sold
-- count, the conversion record) was done: both written after the reader's credit batch, idempotently.
CREATE TABLE payment_readers (
  payment_id    TEXT PRIMARY KEY,
  provider      TEXT NOT NULL,
  user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,  -- the seed's forced wipe deletes users
  provider_ref  TEXT,
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  credited_at   TEXT
);
CREATE INDEX payment_readers_ref ON payment_readers (provider, provider_ref);

-- every payment recorded so far (a paid or refunded one was counted with its credit)
INSERT INTO payment_readers (payment_id, provider, user_id, provider_ref, created_at, credited_at)
  SELECT id, provider, user_id, provider_ref, created_at, CASE WHEN state IN ('PAID', 'REFUNDED') THEN coalesce(paid_at, created_at) END
    FROM payments WHERE 1
  ON CONFLICT DO NOTHING;

-- rows the seed (or a fixture) still writes straight into payments reach the index at once, as createCharge does; a
-- payment id the seed writes again after its wipe (pay_demo_1, …) takes over the row its deleted payment left
CREATE TRIGGER payment_readers_seed AFTER INSERT ON payments
BEGIN
  INSERT INTO payment_readers (payment_id, provider, user_id, provider_ref, created_at, credited_at)
    VALUES (NEW.id, NEW.provider, NEW.user_id, NEW.provider_ref, NEW.created_at,
            CASE WHEN NEW.state IN ('PAID', 'REFUNDED') THEN coalesce(NEW.paid_at, NEW.created_at) END)
    ON CONFLICT (payment_id) DO UPDATE SET provider = excluded.provider, user_id = excluded.user_id,
      provider_ref = excluded.provider_ref, created_at = excluded.created_at, credited_at = excluded.credited_at;
END;
