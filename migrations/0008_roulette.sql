-- Roulette (spec §2 /roulette): a daily free spin is an entry without a ticket holding one slot of the day
-- ('YYYY-MM-DD#n', the edition's calendar day); the unique index lets at most one spin take each slot, however
-- concurrent. Ticketed spins are bounded by event_entries.ticket_id UNIQUE.
ALTER TABLE event_entries ADD COLUMN free_slot TEXT;
CREATE UNIQUE INDEX event_entries_free_slot ON event_entries (event_id, user_id, free_slot) WHERE free_slot IS NOT NULL;
-- The reader's unused roulette tickets, soonest expiry first.
CREATE INDEX event_tickets_unused ON event_tickets (user_id, kind, expires_at) WHERE used_at IS NULL;
