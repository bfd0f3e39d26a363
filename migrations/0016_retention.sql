-- 0016_retention: the indexes the retention sweep walks (issue 24 point 3, src/features/retention/retention.ts,
-- docs/SCALE.md "Retention"). Each batch of the sweep is `DELETE … WHERE rowid IN (SELECT rowid … WHERE <column> <= ?
-- LIMIT 500)`: with these indexes it reads only the rows it deletes, never the whole table.
CREATE INDEX refresh_tokens_expiry ON refresh_tokens (expires_at);
CREATE INDEX one_time_codes_expiry ON one_time_codes (expires_at);
CREATE INDEX rate_limits_reset ON rate_limits (reset_at);
CREATE INDEX carrier_requests_expiry ON carrier_requests (expires_at);
-- only rentals and wait-until-free unlocks end; owned episodes (expires_at null) stay out of the index
CREATE INDEX ownerships_expiry ON ownerships (expires_at) WHERE expires_at IS NOT NULL;
-- only checkouts that were never paid; paid, refunded payments stay out of the index (and out of every sweep)
CREATE INDEX payments_unpaid ON payments (created_at) WHERE state IN ('UNPAID', 'CANCELLED');
-- deleting an unpaid payment first deletes its webhook event rows, and SQLite checks every table whose foreign key
-- points at payments: without these two indexes each deleted payment would scan both tables
CREATE INDEX payment_events_payment ON payment_events (payment_id);
CREATE INDEX conversion_events_payment ON conversion_events (payment_id);
