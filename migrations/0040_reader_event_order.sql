-- 0040_reader_event_order: a reader's object's events are applied in the order it made them (issue 38;
-- src/features/reader/events.server.ts). The account keeps the number of the last one applied, and an event at or below
-- it changes nothing: one integer per reader instead of a row per event kept 7 days (`reader_events`, about 1.7 KB a
-- reader standing). Events of the older kind (one id each) in flight when this ships are refused by the consumer as
-- unknown; an edition with traffic ships it with its queue drained.
ALTER TABLE users ADD COLUMN events_applied INTEGER NOT NULL DEFAULT 0;
DROP TABLE reader_events;
