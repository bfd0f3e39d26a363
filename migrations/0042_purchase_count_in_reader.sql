-- Issue 38: a reader's purchase count is counted from their purchases in their own object (purchase.server.ts
-- PURCHASE_COUNT_SQL, read by GET /user/me); the shared column that a purchase raised in a write of its own goes.
ALTER TABLE users DROP COLUMN purchase_count;
