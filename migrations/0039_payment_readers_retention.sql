-- 0039_payment_readers_retention: the retention rule of the shared payment index (src/features/retention/retention.ts
-- `payment_readers`: a checkout never credited goes after 180 days) walks this index, never the whole table.
CREATE INDEX payment_readers_uncredited ON payment_readers (created_at) WHERE credited_at IS NULL;
