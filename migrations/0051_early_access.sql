-- Issue 37 point 1: early access. An operator opens a series' next scheduled episodes to early readers
-- (`npm run ops -- early open`): from `early_at` a signed-in reader may buy or rent one before its `published_at`, at
-- the prices kept here (the edition's early prices when it was opened); at `published_at` it becomes an ordinary
-- episode at its own prices, and what was bought is kept.
ALTER TABLE episodes ADD COLUMN early_at TEXT;
ALTER TABLE episodes ADD COLUMN early_rent INTEGER CHECK (early_rent IS NULL OR early_rent >= 0);
ALTER TABLE episodes ADD COLUMN early_buy INTEGER CHECK (early_buy IS NULL OR early_buy >= 0);
CREATE INDEX episodes_early ON episodes (series_id, no) WHERE early_at IS NOT NULL;
