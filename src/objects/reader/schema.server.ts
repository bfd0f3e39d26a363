/**
 * The schema of a reader's Durable Object (issue 38; docs/ARCHITECTURE.md "Reader objects"): its own migrations,
 * applied inside the object when it starts (before any call reaches it), each in one transaction with the version
 * it leads to (src/lib/server/object-schema.ts). Like migrations/*.sql for D1: append, never edit one that has shipped.
 */
import { migrateObject } from '../../lib/server/object-schema.ts'

/** Migration n + 1 is READER_MIGRATIONS[n]; `schema_version` holds the number applied. */
const READER_MIGRATIONS: readonly string[] = [
  // 1: reading progress (one row per series), the outbox to the shared side, the object's own facts
  `CREATE TABLE progress (
     series_id   INTEGER PRIMARY KEY,
     episode_id  INTEGER NOT NULL,
     episode_no  INTEGER NOT NULL,
     position    REAL NOT NULL CHECK (position >= 0 AND position <= 1),
     updated_at  TEXT NOT NULL
   );
   CREATE INDEX progress_recent ON progress (updated_at, series_id);
   CREATE TABLE outbox (
     seq   INTEGER PRIMARY KEY AUTOINCREMENT,
     id    TEXT NOT NULL UNIQUE,
     body  TEXT NOT NULL
   );
   CREATE TABLE facts (
     key    TEXT PRIMARY KEY,
     value  TEXT NOT NULL
   );`,
  // 2: favourites and hidden series (library/marks.server.ts), one row per series the reader marked
  `CREATE TABLE marks (
     series_id    INTEGER PRIMARY KEY,
     favorite_at  TEXT,
     hidden_at    TEXT
   );
   CREATE INDEX marks_favorite ON marks (favorite_at, series_id) WHERE favorite_at IS NOT NULL;
   CREATE INDEX marks_hidden ON marks (hidden_at, series_id) WHERE hidden_at IS NOT NULL;`,
  // 3: sessions (auth/session-store.server.ts): one row per session (refresh-token family) and per refresh token
  `CREATE TABLE sessions (
     id           TEXT PRIMARY KEY,
     version      INTEGER NOT NULL,
     client_kind  TEXT NOT NULL,
     ip_address   TEXT,
     created_at   TEXT NOT NULL,
     ended_at     TEXT
   );
   CREATE TABLE refresh_tokens (
     token_hash  TEXT PRIMARY KEY,
     session_id  TEXT NOT NULL REFERENCES sessions (id),
     created_at  TEXT NOT NULL,
     expires_at  TEXT NOT NULL,
     rotated_at  TEXT
   ) WITHOUT ROWID;
   CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);
   CREATE INDEX refresh_tokens_expiry ON refresh_tokens (expires_at);`,
  // 4: the shipping address (payment/address-store.server.ts), one row at most
  `CREATE TABLE address (
     id          INTEGER PRIMARY KEY CHECK (id = 1),
     name        TEXT NOT NULL,
     city        TEXT NOT NULL,
     zip_code    TEXT NOT NULL,
     address1    TEXT NOT NULL,
     address2    TEXT,
     phone       TEXT NOT NULL,
     country     TEXT NOT NULL,
     updated_at  TEXT NOT NULL
   );`,
  // 5: the alarm centre (alarm/alarm-store.server.ts), one row per event through its dedup key
  `CREATE TABLE alarms (
     id          INTEGER PRIMARY KEY AUTOINCREMENT,
     kind        TEXT NOT NULL,
     title       TEXT NOT NULL,
     body        TEXT NOT NULL,
     link        TEXT,
     dedup_key   TEXT NOT NULL UNIQUE,
     created_at  TEXT NOT NULL,
     read_at     TEXT,
     pushed_at   TEXT
   );
   CREATE INDEX alarms_newest ON alarms (created_at, id);
   CREATE INDEX alarms_unread ON alarms (created_at) WHERE read_at IS NULL;`,
  // 6: the reader's money (issue 38, reader/money-store.server.ts): the D1 tables of the same names with the same columns
  // (`user_id` kept, so a statement runs here unchanged), without keys into shared tables. The ledger is append-only:
  // deletes only while the fact `ledger_maintenance` is set (the retention's). Each purchase tells the ranking through
  // the outbox, in its own transaction (D1's trigger `series_daily_purchase` does it while purchases are in D1), and each
  // coupon taken or redeemed tells the operator's counters. A ticket also keeps when the series' next one is ready
  // (`ready_at`, for its notice; null on a ticket moved from D1).
  `CREATE TABLE coin_lots (
     id          INTEGER PRIMARY KEY AUTOINCREMENT,
     user_id     INTEGER NOT NULL,
     type        TEXT NOT NULL CHECK (type IN ('COIN', 'FREE_COIN', 'BONUS', 'MILEAGE')),
     amount      INTEGER NOT NULL CHECK (amount > 0),
     remaining   INTEGER NOT NULL CHECK (remaining >= 0),
     expires_at  TEXT,
     source      TEXT NOT NULL CHECK (source IN ('PAYMENT', 'COUPON', 'MILEAGE', 'REWARD', 'EVENT', 'ADMIN', 'OFFERWALL')),
     ref         TEXT,
     created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
     payment_id  TEXT,
     CHECK (remaining <= amount)
   );
   CREATE INDEX coin_lots_spend ON coin_lots (user_id, type, expires_at);
   CREATE INDEX coin_lots_expiry ON coin_lots (expires_at) WHERE remaining > 0 AND expires_at IS NOT NULL;
   CREATE INDEX coin_lots_payment ON coin_lots (payment_id) WHERE payment_id IS NOT NULL;
   CREATE TABLE coin_ledger (
     id               INTEGER PRIMARY KEY AUTOINCREMENT,
     user_id          INTEGER NOT NULL,
     kind             TEXT NOT NULL CHECK (kind IN ('CHARGE', 'USE', 'EXPIRE', 'CANCEL', 'REFUND_PURCHASE')),
     lot_id           INTEGER REFERENCES coin_lots (id),
     type             TEXT NOT NULL CHECK (type IN ('COIN', 'FREE_COIN', 'BONUS', 'MILEAGE')),
     source           TEXT NOT NULL CHECK (source IN ('PAYMENT', 'COUPON', 'MILEAGE', 'REWARD', 'EVENT', 'ADMIN', 'OFFERWALL')),
     amount           INTEGER NOT NULL CHECK (amount <> 0),
     product_kind     TEXT CHECK (product_kind IS NULL OR product_kind IN ('COIN_PRODUCT', 'EPISODE')),
     series_id        INTEGER,
     episode_id       INTEGER,
     purchase_id      INTEGER,
     ref              TEXT,
     description      TEXT,
     idempotency_key  TEXT,
     created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
   );
   CREATE INDEX coin_ledger_user ON coin_ledger (user_id, created_at);
   CREATE INDEX coin_ledger_user_kind ON coin_ledger (user_id, kind, created_at);
   CREATE INDEX coin_ledger_lot ON coin_ledger (lot_id);
   CREATE TRIGGER coin_ledger_no_update BEFORE UPDATE ON coin_ledger
   BEGIN
     SELECT RAISE(ABORT, 'coin_ledger is append-only');
   END;
   CREATE TRIGGER coin_ledger_no_delete BEFORE DELETE ON coin_ledger
   WHEN (SELECT value FROM facts WHERE key = 'ledger_maintenance') IS NULL
   BEGIN
     SELECT RAISE(ABORT, 'coin_ledger is append-only');
   END;
   CREATE TABLE purchases (
     id               INTEGER PRIMARY KEY AUTOINCREMENT,
     user_id          INTEGER NOT NULL,
     series_id        INTEGER NOT NULL,
     episode_id       INTEGER NOT NULL,
     type             TEXT NOT NULL CHECK (type IN ('POSSESSION', 'POSSESSION_GIFT', 'RENT', 'RENT_GIFT', 'PERMANENT', 'FREETIME')),
     coins            INTEGER NOT NULL DEFAULT 0 CHECK (coins >= 0),
     gift_id          INTEGER,
     idempotency_key  TEXT,
     created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
   );
   CREATE INDEX purchases_user ON purchases (user_id, created_at);
   CREATE INDEX purchases_episode ON purchases (user_id, episode_id);
   CREATE TRIGGER purchase_event AFTER INSERT ON purchases
   BEGIN
     INSERT INTO outbox (id, body) VALUES (lower(hex(randomblob(16))),
       json_object('kind', 'purchase', 'seriesId', NEW.series_id, 'day', substr(NEW.created_at, 1, 10)));
   END;
   CREATE TABLE ownerships (
     id           INTEGER PRIMARY KEY AUTOINCREMENT,
     user_id      INTEGER NOT NULL,
     series_id    INTEGER NOT NULL,
     episode_id   INTEGER NOT NULL,
     kind         TEXT NOT NULL CHECK (kind IN ('POSSESSION', 'ALL_POSSESSION', 'RENT', 'ALL_RENT', 'PERMANENT', 'FREETIME')),
     expires_at   TEXT,
     purchase_id  INTEGER REFERENCES purchases (id),
     created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
     updated_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
     UNIQUE (user_id, episode_id, kind)
   );
   CREATE INDEX ownerships_user_series ON ownerships (user_id, series_id, episode_id);
   CREATE INDEX ownerships_user_recent ON ownerships (user_id, created_at);
   CREATE INDEX ownerships_expiry ON ownerships (expires_at) WHERE expires_at IS NOT NULL;
   CREATE TABLE wuf_tickets (
     id                 INTEGER PRIMARY KEY AUTOINCREMENT,
     user_id            INTEGER NOT NULL,
     series_id          INTEGER NOT NULL,
     available_at       TEXT NOT NULL,
     used_at            TEXT,
     used_episode_id    INTEGER,
     unlock_expires_at  TEXT,
     created_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
     ready_at           TEXT
   );
   CREATE INDEX wuf_tickets_ready ON wuf_tickets (ready_at) WHERE ready_at IS NOT NULL;
   CREATE UNIQUE INDEX wuf_tickets_slot ON wuf_tickets (user_id, series_id, available_at);
   CREATE INDEX wuf_tickets_used ON wuf_tickets (used_at) WHERE used_at IS NOT NULL;
   CREATE TABLE auto_unlock (
     user_id     INTEGER NOT NULL,
     series_id   INTEGER NOT NULL,
     budget      INTEGER NOT NULL CHECK (budget BETWEEN 1 AND 10000),
     kind        TEXT NOT NULL DEFAULT 'RENT' CHECK (kind IN ('RENT', 'POSSESSION')),
     enabled_at  TEXT NOT NULL,
     spent       INTEGER NOT NULL DEFAULT 0 CHECK (spent >= 0),
     PRIMARY KEY (user_id, series_id)
   );
   CREATE TABLE idempotency_keys (
     user_id          INTEGER NOT NULL,
     key              TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
     scope            TEXT NOT NULL DEFAULT '',
     request_hash     TEXT NOT NULL,
     response_status  INTEGER NOT NULL,
     response_body    TEXT NOT NULL,
     created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
     PRIMARY KEY (user_id, key)
   );
   CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
   CREATE TABLE payments (
     id               TEXT PRIMARY KEY,
     user_id          INTEGER NOT NULL,
     product_id       INTEGER,
     state            TEXT NOT NULL DEFAULT 'UNPAID' CHECK (state IN ('UNPAID', 'PAID', 'CANCELLED', 'REFUNDED')),
     provider         TEXT NOT NULL,
     method           TEXT,
     amount           INTEGER NOT NULL CHECK (amount >= 0),
     currency         TEXT NOT NULL CHECK (length(currency) = 3),
     coins            INTEGER NOT NULL DEFAULT 0 CHECK (coins >= 0),
     bonus            INTEGER NOT NULL DEFAULT 0 CHECK (bonus >= 0),
     idempotency_key  TEXT NOT NULL,
     provider_ref     TEXT,
     created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
     paid_at          TEXT,
     cancelled_at     TEXT,
     refunded_at      TEXT,
     UNIQUE (user_id, idempotency_key),
     UNIQUE (provider, provider_ref)
   );
   CREATE INDEX payments_user ON payments (user_id, created_at);
   CREATE INDEX payments_unpaid ON payments (created_at) WHERE state IN ('UNPAID', 'CANCELLED');
   CREATE TABLE payment_events (
     provider     TEXT NOT NULL,
     event_id     TEXT NOT NULL,
     payment_id   TEXT REFERENCES payments (id),
     type         TEXT,
     received_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
     PRIMARY KEY (provider, event_id)
   );
   CREATE INDEX payment_events_payment ON payment_events (payment_id);
   CREATE TABLE payment_reversals (
     payment_id  TEXT PRIMARY KEY REFERENCES payments (id),
     user_id     INTEGER NOT NULL,
     reason      TEXT NOT NULL CHECK (reason IN ('REFUND', 'PROVIDER_REFUND', 'DISPUTE')),
     debt        INTEGER NOT NULL DEFAULT 0 CHECK (debt >= 0),
     created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
   );
   CREATE INDEX payment_reversals_debt ON payment_reversals (user_id) WHERE debt > 0;
   CREATE TABLE gifts (
     id               INTEGER PRIMARY KEY AUTOINCREMENT,
     user_id          INTEGER NOT NULL,
     kind             TEXT NOT NULL CHECK (kind IN ('RENT', 'POSSESSION')),
     series_id        INTEGER,
     episode_id       INTEGER,
     title            TEXT NOT NULL,
     sender_kind      TEXT NOT NULL DEFAULT 'MAIL' CHECK (sender_kind IN ('MAIL', 'USER')),
     given_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
     used_at          TEXT,
     used_episode_id  INTEGER,
     expires_at       TEXT,
     CHECK (series_id IS NOT NULL OR episode_id IS NOT NULL)
   );
   CREATE INDEX gifts_user_unused ON gifts (user_id, used_at, given_at);
   CREATE TABLE coupon_redemptions (
     id             INTEGER PRIMARY KEY AUTOINCREMENT,
     coupon_id      INTEGER NOT NULL,
     user_id        INTEGER NOT NULL,
     downloaded_at  TEXT,
     used_at        TEXT,
     created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
     UNIQUE (user_id, coupon_id)
   );
   CREATE TRIGGER coupon_received AFTER INSERT ON coupon_redemptions
   BEGIN
     INSERT INTO outbox (id, body) VALUES (lower(hex(randomblob(16))),
       json_object('kind', 'coupon', 'couponId', NEW.coupon_id, 'received', 1, 'redeemed', NEW.used_at IS NOT NULL));
   END;
   CREATE TRIGGER coupon_redeemed AFTER UPDATE OF used_at ON coupon_redemptions
   WHEN OLD.used_at IS NULL AND NEW.used_at IS NOT NULL
   BEGIN
     INSERT INTO outbox (id, body) VALUES (lower(hex(randomblob(16))),
       json_object('kind', 'coupon', 'couponId', NEW.coupon_id, 'received', 0, 'redeemed', 1));
   END;
   CREATE TABLE event_tickets (
     id          INTEGER PRIMARY KEY AUTOINCREMENT,
     event_id    INTEGER,
     user_id     INTEGER NOT NULL,
     kind        TEXT NOT NULL DEFAULT 'ROULETTE' CHECK (kind IN ('ROULETTE', 'ATTENDANCE', 'SIGNUP', 'PROMOTION')),
     source      TEXT NOT NULL CHECK (source IN ('PAYMENT', 'COUPON', 'MILEAGE', 'REWARD', 'EVENT', 'ADMIN', 'OFFERWALL')),
     ref         TEXT,
     expires_at  TEXT,
     used_at     TEXT,
     created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
   );
   CREATE INDEX event_tickets_unused ON event_tickets (user_id, kind, expires_at) WHERE used_at IS NULL;
   CREATE TABLE event_entries (
     id            INTEGER PRIMARY KEY AUTOINCREMENT,
     event_id      INTEGER NOT NULL,
     user_id       INTEGER NOT NULL,
     ticket_id     INTEGER UNIQUE REFERENCES event_tickets (id),
     prize_type    TEXT CHECK (prize_type IS NULL OR prize_type IN ('COIN', 'FREE_COIN', 'BONUS', 'MILEAGE', 'NONE')),
     prize_amount  INTEGER NOT NULL DEFAULT 0 CHECK (prize_amount >= 0),
     result        TEXT CHECK (result IS NULL OR json_valid(result)),
     created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
     free_slot     TEXT
   );
   CREATE INDEX event_entries_user ON event_entries (event_id, user_id, created_at);
   CREATE UNIQUE INDEX event_entries_free_slot ON event_entries (event_id, user_id, free_slot) WHERE free_slot IS NOT NULL;`,
  // 7: the episodes the reader opened on their latest UTC days (`viewed`): one view per episode and day is counted
  // (docs/API.md "View counts"); a day's rows go once a later day's view is written
  `CREATE TABLE views (
     day         TEXT NOT NULL,
     episode_id  INTEGER NOT NULL,
     PRIMARY KEY (day, episode_id)
   ) WITHOUT ROWID;`,
  // 8: the account card (auth/account-card.server.ts): the reader's adult flags, switches and session version as D1's
  // `users` row had them when read (`loaded_at`), one row at most
  `CREATE TABLE account (
     id         INTEGER PRIMARY KEY CHECK (id = 1),
     card       TEXT,
     loaded_at  TEXT NOT NULL
   );`,
  // 9: the episodes the reader likes (like/likes.server.ts), one row each
  `CREATE TABLE likes (
     episode_id  INTEGER PRIMARY KEY,
     series_id   INTEGER NOT NULL,
     liked_at    TEXT NOT NULL
   );`,
  // 10: the creators the reader follows (library/follows.server.ts), one row each
  `CREATE TABLE follows (
     creator_id   INTEGER PRIMARY KEY,
     followed_at  TEXT NOT NULL
   );`,
  // 11: the reader's monthly spending limit (spending/spending.server.ts), one row at most: the limit in force (null:
  // none) and a raise waiting until next_at
  `CREATE TABLE spending_limit (
     id          INTEGER PRIMARY KEY CHECK (id = 1),
     coins       INTEGER CHECK (coins IS NULL OR coins >= 0),
     next_coins  INTEGER CHECK (next_coins IS NULL OR next_coins >= 0),
     next_at     TEXT,
     set_at      TEXT NOT NULL
   );`,
]

/** Brings the object's SQLite to the last migration; answers the version it is at. */
export const migrateReader = (storage: DurableObjectStorage): number => migrateObject(storage, READER_MIGRATIONS)
