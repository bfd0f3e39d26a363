-- Issue 12 point 10: the coin cap of automatic unlocks is the server's. What was spent against the budget is kept
-- beside it, per reader and series, and every automatic purchase adds its coins in its own batch with one
-- conditional UPDATE (`spent + price <= budget`), so two tabs reading at once cannot spend past the cap.
ALTER TABLE auto_unlock ADD COLUMN spent INTEGER NOT NULL DEFAULT 0 CHECK (spent >= 0);

-- Until now "spent" was derived from the automatic purchases (Idempotency-Key prefix) made since the opt-in.
UPDATE auto_unlock SET spent = (
  SELECT coalesce(sum(p.coins), 0) FROM purchases p
   WHERE p.user_id = auto_unlock.user_id AND p.series_id = auto_unlock.series_id AND p.created_at >= auto_unlock.enabled_at
     AND substr(p.idempotency_key, 1, 12) = 'viewer-auto:');
