-- 0001_init: the whole data model of spec §3 (D1 / SQLite).
--
-- Conventions
--   * Timestamps are TEXT ISO-8601 UTC with milliseconds, e.g. '2026-11-22T10:00:00.000Z' (the default
--     `strftime('%Y-%m-%dT%H:%M:%fZ','now')` produces the same shape, so text comparison orders them).
--     Calendar dates (birth dates) are TEXT 'YYYY-MM-DD'.
--   * Booleans are INTEGER 0/1 with a CHECK.
--   * Enumerations are TEXT with a CHECK listing the spec's values (spec §3).
--   * Coin amounts are INTEGER coins; currency amounts are INTEGER minor units (API.md).
--   * Balances are never stored: they are the sum of coin_lots.remaining (ARCHITECTURE.md "Money").
--   * D1 enforces foreign keys; deletes must go children first.

-- Seed marker and other small key/value facts (`seed_version`, `ledger_maintenance`).
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- ───────────────────────────── accounts ─────────────────────────────

CREATE TABLE users (
  id                 INTEGER PRIMARY KEY AUTOINCREMENT,
  email              TEXT COLLATE NOCASE,               -- null for SNS-only / apple_guest accounts
  password_hash      TEXT,                              -- null when the account has no local login
  phone              TEXT,                              -- phone-registered accounts (find IDs / password by SMS)
  name               TEXT,
  nickname           TEXT,
  email_verified_at  TEXT,
  birthed_at         TEXT CHECK (birthed_at IS NULL OR birthed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  is_adult           INTEGER NOT NULL DEFAULT 0 CHECK (is_adult IN (0, 1)),
  adult_verified_at  TEXT,                              -- adult verification is valid 1 year (spec §4)
  is_adult_kr        INTEGER NOT NULL DEFAULT 0 CHECK (is_adult_kr IN (0, 1)),
  is_kr_ip_user      INTEGER NOT NULL DEFAULT 0 CHECK (is_kr_ip_user IN (0, 1)),
  show_adult         INTEGER NOT NULL DEFAULT 0 CHECK (show_adult IN (0, 1)),
  is_bl_toggle       INTEGER NOT NULL DEFAULT 0 CHECK (is_bl_toggle IN (0, 1)),
  is_agree_mail      INTEGER NOT NULL DEFAULT 0 CHECK (is_agree_mail IN (0, 1)),
  purchase_count     INTEGER NOT NULL DEFAULT 0 CHECK (purchase_count >= 0),
  platform           TEXT NOT NULL DEFAULT 'WEB' CHECK (platform IN ('WEB', 'AND_PLAY', 'AND_PLUS', 'IOS_APP')),
  last_login_at      TEXT,
  withdrawal_requested_at TEXT,
  deleted_at         TEXT,                              -- withdrawal done; e-mail blocked from re-sign-up 30 days
  created_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
-- One live account per e-mail; a withdrawn account keeps its e-mail for the 30-day re-sign-up block.
CREATE UNIQUE INDEX users_email_live ON users (email) WHERE deleted_at IS NULL AND email IS NOT NULL;
CREATE INDEX users_email ON users (email);
CREATE INDEX users_phone ON users (phone) WHERE phone IS NOT NULL;

-- SNS logins (spec §3 snsProvider/snsId), one row per provider account.
CREATE TABLE identities (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id          INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider         TEXT NOT NULL CHECK (provider IN ('google', 'facebook', 'twitter', 'apple', 'apple_guest')),
  provider_user_id TEXT NOT NULL,
  email            TEXT,
  created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (provider, provider_user_id)
);
CREATE INDEX identities_user ON identities (user_id);

-- Opaque refresh tokens, stored hashed, rotated on every use; a reused token revokes its family.
CREATE TABLE refresh_tokens (
  id          TEXT PRIMARY KEY,                         -- random id
  user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  family_id   TEXT NOT NULL,
  token_hash  TEXT NOT NULL UNIQUE,                     -- SHA-256 of the token, base64url
  parent_id   TEXT,                                     -- the token this one replaced
  client_kind TEXT NOT NULL DEFAULT 'WEB' CHECK (client_kind IN ('WEB', 'APP', 'VIEWER_APP')),
  ip_address  TEXT,
  user_agent  TEXT,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  expires_at  TEXT NOT NULL,
  rotated_at  TEXT,
  revoked_at  TEXT
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id, created_at);

-- One-time codes and links (spec §9: e-mail OTP 1 h 6 digits, SMS 10 min, reset link 1 h), single-use.
CREATE TABLE one_time_codes (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  kind        TEXT NOT NULL CHECK (kind IN ('SIGNUP_MAIL', 'EMAIL_OTP', 'SMS', 'RESET_LINK', 'WITHDRAWAL_MAIL', 'CHANGE_MAIL', 'ADULT_KR')),
  user_id     INTEGER REFERENCES users (id) ON DELETE CASCADE,
  target      TEXT NOT NULL,                            -- e-mail address or phone number
  code_hash   TEXT NOT NULL,
  attempts    INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  expires_at  TEXT NOT NULL,
  used_at     TEXT
);
CREATE INDEX one_time_codes_target ON one_time_codes (kind, target, created_at);
CREATE INDEX one_time_codes_hash ON one_time_codes (code_hash);

-- Mail and SMS "sent" by the local provider; a dev-only page shows them.
CREATE TABLE outbox (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  channel     TEXT NOT NULL CHECK (channel IN ('MAIL', 'SMS')),
  recipient   TEXT NOT NULL,
  template    TEXT,
  subject     TEXT,
  body        TEXT NOT NULL,
  meta        TEXT CHECK (meta IS NULL OR json_valid(meta)),
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX outbox_recipient ON outbox (recipient, created_at);
CREATE INDEX outbox_created ON outbox (created_at);

-- Push and e-mail consents (spec §3 push settings; User.agreePush).
CREATE TABLE push_settings (
  user_id                  INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  is_app_push              INTEGER NOT NULL DEFAULT 0 CHECK (is_app_push IN (0, 1)),
  is_agree_push            INTEGER NOT NULL DEFAULT 0 CHECK (is_agree_push IN (0, 1)),
  is_agree_push_night      INTEGER NOT NULL DEFAULT 0 CHECK (is_agree_push_night IN (0, 1)),
  is_agree_push_freetime   INTEGER NOT NULL DEFAULT 0 CHECK (is_agree_push_freetime IN (0, 1)),
  is_agree_push_contents   INTEGER NOT NULL DEFAULT 0 CHECK (is_agree_push_contents IN (0, 1)),
  push_token               TEXT,
  updated_at               TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Withdrawal requests (spec §2/§4: reason slots, agreement, mail, approval, permanent deletion).
CREATE TABLE withdrawals (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  reasons       TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(reasons)),   -- selected reason slots
  detail        TEXT,
  requested_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  confirmed_at  TEXT,
  approved_at   TEXT,
  cancelled_at  TEXT
);
CREATE INDEX withdrawals_user ON withdrawals (user_id, requested_at);

-- Account transfer (spec §4: once per account, statuses error/start/request/finish).
CREATE TABLE account_transfers (
  user_id     INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  status      TEXT NOT NULL CHECK (status IN ('START', 'REQUEST', 'FINISH', 'ERROR')),
  target      TEXT,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Shipping address form (spec §3).
CREATE TABLE addresses (
  user_id     INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  city        TEXT NOT NULL,
  zip_code    TEXT NOT NULL,
  address1    TEXT NOT NULL,
  address2    TEXT,
  phone       TEXT NOT NULL,
  country     TEXT NOT NULL,                            -- ISO 3166-1 alpha-2
  updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Fixed-window counters for rate limits that must be exact (sign-in, SMS, OTP, QnA per day).
CREATE TABLE rate_limits (
  bucket      TEXT PRIMARY KEY,                         -- e.g. 'signin:<email>'
  count       INTEGER NOT NULL DEFAULT 0 CHECK (count >= 0),
  reset_at    TEXT NOT NULL
);

-- ───────────────────────────── catalogue ─────────────────────────────

CREATE TABLE series (
  id                  INTEGER PRIMARY KEY AUTOINCREMENT,
  title               TEXT NOT NULL,
  description         TEXT NOT NULL DEFAULT '',
  type                TEXT NOT NULL DEFAULT 'IMAGE' CHECK (type IN ('IMAGE', 'TEXT')),
  status              TEXT NOT NULL CHECK (status IN ('COMPLETED', 'SCHEDULED', 'PAUSED')),
  is_adult            INTEGER NOT NULL DEFAULT 0 CHECK (is_adult IN (0, 1)),
  is_bl               INTEGER NOT NULL DEFAULT 0 CHECK (is_bl IN (0, 1)),
  genre               TEXT NOT NULL CHECK (genre IN ('ROMANCE', 'ACTION', 'DRAMA', 'FANTASY', 'COMEDY', 'BL', 'THRILLER', 'HORROR', 'SLICE_OF_LIFE')),
  cover_key           TEXT,                             -- R2 key prefix; objects are `<cover_key>/<width>.webp`
  cover_width         INTEGER CHECK (cover_width IS NULL OR cover_width > 0),
  cover_height        INTEGER CHECK (cover_height IS NULL OR cover_height > 0),
  reading_direction   TEXT NOT NULL DEFAULT 'ltr' CHECK (reading_direction IN ('ltr', 'rtl')),
  wuf_hours           INTEGER CHECK (wuf_hours IS NULL OR wuf_hours > 0),   -- null: no wait-until-free (FREETIME list)
  free_promo          INTEGER NOT NULL DEFAULT 0 CHECK (free_promo IN (0, 1)),  -- listed in the FREE tab
  rank_score          INTEGER NOT NULL DEFAULT 0,       -- POPULAR / RANKING order, higher first
  view_count          INTEGER NOT NULL DEFAULT 0 CHECK (view_count >= 0),
  episode_count       INTEGER NOT NULL DEFAULT 0 CHECK (episode_count >= 0),       -- maintained by import
  free_episode_count  INTEGER NOT NULL DEFAULT 0 CHECK (free_episode_count >= 0),  -- maintained by import
  launched_at         TEXT,                             -- first episode; NEWEST tab order
  last_episode_at     TEXT,                             -- latest published episode; LATEST list order
  next_update_at      TEXT,                             -- viewer "next update date"
  is_published        INTEGER NOT NULL DEFAULT 1 CHECK (is_published IN (0, 1)),
  created_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX series_rank ON series (rank_score DESC, id);
CREATE INDEX series_genre_rank ON series (genre, rank_score DESC);
CREATE INDEX series_last_episode ON series (last_episode_at DESC);
CREATE INDEX series_launched ON series (launched_at DESC);
CREATE INDEX series_adult_rank ON series (is_adult, rank_score DESC);
CREATE INDEX series_bl_rank ON series (is_bl, rank_score DESC);
CREATE INDEX series_free_rank ON series (free_promo, rank_score DESC);
CREATE INDEX series_wuf_rank ON series (rank_score DESC) WHERE wuf_hours IS NOT NULL;

-- Search over title, creator names and tag names; rowid = series.id.
-- Kept in sync by the seed / import code (no triggers). unicode61 without diacritics: "reine" finds "Reine".
CREATE VIRTUAL TABLE series_fts USING fts5 (title, creators, tags, tokenize = 'unicode61 remove_diacritics 2');

CREATE TABLE creators (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  name        TEXT NOT NULL,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX creators_name ON creators (name);

CREATE TABLE series_creators (
  series_id   INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
  creator_id  INTEGER NOT NULL REFERENCES creators (id) ON DELETE CASCADE,
  role        TEXT NOT NULL CHECK (role IN ('AUTHOR', 'WRITER', 'ARTIST', 'ORIGINAL', 'ADAPTER')),
  position    INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (series_id, creator_id, role)
);
CREATE INDEX series_creators_creator ON series_creators (creator_id, series_id);

CREATE TABLE tags (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  name            TEXT NOT NULL UNIQUE,
  is_recommended  INTEGER NOT NULL DEFAULT 0 CHECK (is_recommended IN (0, 1)),  -- tag recommend list
  search_count    INTEGER NOT NULL DEFAULT 0 CHECK (search_count >= 0)        -- tag top10 order
);

CREATE TABLE series_tags (
  series_id   INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
  tag_id      INTEGER NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  PRIMARY KEY (series_id, tag_id)
);
CREATE INDEX series_tags_tag ON series_tags (tag_id, series_id);

-- Weekly schedule groups (spec §3): one row per weekday a series updates, or TEN.
CREATE TABLE schedules (
  series_id   INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
  weekday     TEXT NOT NULL CHECK (weekday IN ('SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'TEN')),
  position    INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (series_id, weekday)
);
CREATE INDEX schedules_weekday ON schedules (weekday, position, series_id);

-- Curated picks (/home/pick).
CREATE TABLE themes (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  title        TEXT NOT NULL,
  description  TEXT NOT NULL DEFAULT '',
  image_key    TEXT,
  position     INTEGER NOT NULL DEFAULT 0,
  starts_at    TEXT,
  ends_at      TEXT,
  is_active    INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX themes_position ON themes (is_active, position);

CREATE TABLE theme_series (
  theme_id    INTEGER NOT NULL REFERENCES themes (id) ON DELETE CASCADE,
  series_id   INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
  position    INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (theme_id, series_id)
);
CREATE INDEX theme_series_order ON theme_series (theme_id, position);

CREATE TABLE banners (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  placement     TEXT NOT NULL DEFAULT 'HOME' CHECK (placement IN ('HOME', 'SHOP', 'MY', 'EVENT', 'VIEWER', 'SIGNUP')),
  display       TEXT NOT NULL CHECK (display IN ('ONLY_ICON', 'ONLY_TEXT', 'ICON_TEXT', 'TEXT_ICON')),
  title         TEXT NOT NULL,
  subtitle      TEXT,
  link          TEXT NOT NULL,
  image_key     TEXT,                                   -- `<image_key>/<width>.webp`
  image_width   INTEGER,
  image_height  INTEGER,
  background    TEXT,                                   -- '#rrggbb'
  starts_at     TEXT,
  ends_at       TEXT,
  position      INTEGER NOT NULL DEFAULT 0,
  is_adult      INTEGER NOT NULL DEFAULT 0 CHECK (is_adult IN (0, 1)),
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX banners_placement ON banners (placement, position);

CREATE TABLE notices (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  category      TEXT NOT NULL DEFAULT 'NOTICE' CHECK (category IN ('NOTICE', 'EVENT', 'UPDATE', 'MAINTENANCE')),
  series_id     INTEGER REFERENCES series (id) ON DELETE CASCADE,   -- content notice shown on a detail page
  title         TEXT NOT NULL,
  body          TEXT NOT NULL,
  is_pinned     INTEGER NOT NULL DEFAULT 0 CHECK (is_pinned IN (0, 1)),
  published_at  TEXT NOT NULL,
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX notices_published ON notices (is_pinned DESC, published_at DESC);
CREATE INDEX notices_series ON notices (series_id, published_at DESC) WHERE series_id IS NOT NULL;

CREATE TABLE faqs (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  category    TEXT NOT NULL CHECK (category IN ('ACCOUNT', 'COIN', 'PAYMENT', 'VIEWER', 'EVENT', 'ETC')),
  question    TEXT NOT NULL,
  answer      TEXT NOT NULL,
  position    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX faqs_category ON faqs (category, position);

CREATE TABLE episodes (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  series_id     INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
  no            INTEGER NOT NULL CHECK (no > 0),
  title         TEXT NOT NULL,
  content_type  TEXT NOT NULL DEFAULT 'IMAGE' CHECK (content_type IN ('IMAGE', 'TEXT')),
  is_free       INTEGER NOT NULL DEFAULT 0 CHECK (is_free IN (0, 1)),
  price_rent    INTEGER CHECK (price_rent IS NULL OR price_rent >= 0),   -- coins; null: cannot be rented
  price_buy     INTEGER CHECK (price_buy IS NULL OR price_buy >= 0),     -- coins; null: cannot be bought
  thumbnail_key TEXT,
  text_body     TEXT,                                   -- TEXT (novel) episodes
  published_at  TEXT NOT NULL,
  view_count    INTEGER NOT NULL DEFAULT 0 CHECK (view_count >= 0),
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (series_id, no),
  CHECK (is_free = 1 OR price_rent IS NOT NULL OR price_buy IS NOT NULL)
);
CREATE INDEX episodes_published ON episodes (published_at DESC);

-- Image slices of an IMAGE episode; objects are `<key>/<width>.webp`.
CREATE TABLE episode_images (
  episode_id  INTEGER NOT NULL REFERENCES episodes (id) ON DELETE CASCADE,
  position    INTEGER NOT NULL CHECK (position > 0),
  key         TEXT NOT NULL,
  width       INTEGER NOT NULL CHECK (width > 0),
  height      INTEGER NOT NULL CHECK (height > 0),
  alt         TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (episode_id, position)
);

-- ───────────────────────────── money ─────────────────────────────

CREATE TABLE coin_products (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  coins           INTEGER NOT NULL CHECK (coins > 0),
  bonus           INTEGER NOT NULL DEFAULT 0 CHECK (bonus >= 0),
  price           INTEGER NOT NULL CHECK (price >= 0),  -- minor units of currency
  currency        TEXT NOT NULL CHECK (length(currency) = 3),
  per_user_limit  INTEGER CHECK (per_user_limit IS NULL OR per_user_limit > 0),
  stock_limit     INTEGER CHECK (stock_limit IS NULL OR stock_limit >= 0),
  sold_count      INTEGER NOT NULL DEFAULT 0 CHECK (sold_count >= 0),
  platform        TEXT CHECK (platform IS NULL OR platform IN ('WEB', 'AND_PLAY', 'AND_PLUS', 'IOS_APP')),
  label           TEXT,
  is_active       INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  position        INTEGER NOT NULL DEFAULT 0,
  created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CHECK (stock_limit IS NULL OR sold_count <= stock_limit)
);
CREATE INDEX coin_products_active ON coin_products (is_active, position);

CREATE TABLE payments (
  id               TEXT PRIMARY KEY,                    -- e.g. 'pay_<random>'
  user_id          INTEGER NOT NULL REFERENCES users (id),
  product_id       INTEGER REFERENCES coin_products (id),
  state            TEXT NOT NULL DEFAULT 'UNPAID' CHECK (state IN ('UNPAID', 'PAID', 'CANCELLED', 'REFUNDED')),
  provider         TEXT NOT NULL,                       -- 'local', 'stripe', …
  method           TEXT,
  amount           INTEGER NOT NULL CHECK (amount >= 0),  -- minor units
  currency         TEXT NOT NULL CHECK (length(currency) = 3),
  coins            INTEGER NOT NULL DEFAULT 0 CHECK (coins >= 0),
  bonus            INTEGER NOT NULL DEFAULT 0 CHECK (bonus >= 0),
  idempotency_key  TEXT NOT NULL,
  provider_ref     TEXT,
  created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  paid_at          TEXT,
  cancelled_at     TEXT,
  UNIQUE (user_id, idempotency_key),
  UNIQUE (provider, provider_ref)
);
CREATE INDEX payments_user ON payments (user_id, created_at);

-- Provider webhook events already processed (a replay credits nothing twice).
CREATE TABLE payment_events (
  provider     TEXT NOT NULL,
  event_id     TEXT NOT NULL,
  payment_id   TEXT REFERENCES payments (id),
  type         TEXT,
  received_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (provider, event_id)
);

-- Every grant of coins is a lot; balance = Σ remaining. Spend order: BONUS, FREE_COIN, COIN, earliest expiry first.
CREATE TABLE coin_lots (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id     INTEGER NOT NULL REFERENCES users (id),
  type        TEXT NOT NULL CHECK (type IN ('COIN', 'FREE_COIN', 'BONUS', 'MILEAGE')),
  amount      INTEGER NOT NULL CHECK (amount > 0),
  remaining   INTEGER NOT NULL CHECK (remaining >= 0),
  expires_at  TEXT,                                     -- null: never expires
  source      TEXT NOT NULL CHECK (source IN ('PAYMENT', 'COUPON', 'MILEAGE', 'REWARD', 'EVENT', 'ADMIN', 'OFFERWALL')),
  ref         TEXT,                                     -- payment id, coupon id, event entry id, …
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CHECK (remaining <= amount)
);
CREATE INDEX coin_lots_spend ON coin_lots (user_id, type, expires_at);
CREATE INDEX coin_lots_expiry ON coin_lots (expires_at) WHERE remaining > 0 AND expires_at IS NOT NULL;

-- Append-only ledger: one row per lot touched. `amount` is the signed change of that lot's remaining
-- (CHARGE/REFUND_PURCHASE > 0, USE/EXPIRE/CANCEL < 0), so per user Σ amount = Σ coin_lots.remaining.
-- The other columns describe the movement and never enter the balance.
CREATE TABLE coin_ledger (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id          INTEGER NOT NULL REFERENCES users (id),
  kind             TEXT NOT NULL CHECK (kind IN ('CHARGE', 'USE', 'EXPIRE', 'CANCEL', 'REFUND_PURCHASE')),
  lot_id           INTEGER REFERENCES coin_lots (id),
  type             TEXT NOT NULL CHECK (type IN ('COIN', 'FREE_COIN', 'BONUS', 'MILEAGE')),
  source           TEXT NOT NULL CHECK (source IN ('PAYMENT', 'COUPON', 'MILEAGE', 'REWARD', 'EVENT', 'ADMIN', 'OFFERWALL')),
  amount           INTEGER NOT NULL CHECK (amount <> 0),
  product_kind     TEXT CHECK (product_kind IS NULL OR product_kind IN ('COIN_PRODUCT', 'EPISODE')),
  series_id        INTEGER,                             -- no FK: history outlives catalogue changes
  episode_id       INTEGER,
  purchase_id      INTEGER,
  ref              TEXT,                                -- payment id, coupon code, reason, …
  description      TEXT,
  idempotency_key  TEXT,
  created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX coin_ledger_user ON coin_ledger (user_id, created_at);
CREATE INDEX coin_ledger_user_kind ON coin_ledger (user_id, kind, created_at);
CREATE INDEX coin_ledger_lot ON coin_ledger (lot_id);

-- Ledger rows are immutable. Deletes are refused too, except while meta.ledger_maintenance is set
-- (the dev seed's --force wipe sets it inside its batch).
CREATE TRIGGER coin_ledger_no_update BEFORE UPDATE ON coin_ledger
BEGIN
  SELECT RAISE(ABORT, 'coin_ledger is append-only');
END;
CREATE TRIGGER coin_ledger_no_delete BEFORE DELETE ON coin_ledger
WHEN (SELECT value FROM meta WHERE key = 'ledger_maintenance') IS NULL
BEGIN
  SELECT RAISE(ABORT, 'coin_ledger is append-only');
END;

-- First answer of every coin/ownership-moving request (API.md Idempotency-Key).
CREATE TABLE idempotency_keys (
  user_id          INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key              TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  scope            TEXT NOT NULL DEFAULT '',            -- route, e.g. 'POST /purchase'
  request_hash     TEXT NOT NULL,
  response_status  INTEGER NOT NULL,
  response_body    TEXT NOT NULL,
  created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

CREATE TABLE purchases (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id          INTEGER NOT NULL REFERENCES users (id),
  series_id        INTEGER NOT NULL REFERENCES series (id),
  episode_id       INTEGER NOT NULL REFERENCES episodes (id),
  type             TEXT NOT NULL CHECK (type IN ('POSSESSION', 'POSSESSION_GIFT', 'RENT', 'RENT_GIFT', 'PERMANENT', 'FREETIME')),
  coins            INTEGER NOT NULL DEFAULT 0 CHECK (coins >= 0),
  gift_id          INTEGER,
  idempotency_key  TEXT,
  created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX purchases_user ON purchases (user_id, created_at);
CREATE INDEX purchases_episode ON purchases (user_id, episode_id);

-- What a reader may open. One row per user + episode + kind; RENT/FREETIME carry expires_at.
CREATE TABLE ownerships (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  series_id    INTEGER NOT NULL REFERENCES series (id),
  episode_id   INTEGER NOT NULL REFERENCES episodes (id),
  kind         TEXT NOT NULL CHECK (kind IN ('POSSESSION', 'ALL_POSSESSION', 'RENT', 'ALL_RENT', 'PERMANENT', 'FREETIME')),
  expires_at   TEXT,                                    -- null: forever
  purchase_id  INTEGER REFERENCES purchases (id),
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (user_id, episode_id, kind)
);
CREATE INDEX ownerships_user_series ON ownerships (user_id, series_id, episode_id);
CREATE INDEX ownerships_user_recent ON ownerships (user_id, created_at);

-- Wait-until-free: a ticket per use; the next one is available at available_at (spec §4: unlock 72 h).
CREATE TABLE wuf_tickets (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id          INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  series_id        INTEGER NOT NULL REFERENCES series (id),
  available_at     TEXT NOT NULL,
  used_at          TEXT,
  used_episode_id  INTEGER REFERENCES episodes (id),
  unlock_expires_at TEXT,
  created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX wuf_tickets_user_series ON wuf_tickets (user_id, series_id, available_at);

CREATE TABLE coupons (
  id                  INTEGER PRIMARY KEY AUTOINCREMENT,
  code                TEXT COLLATE NOCASE UNIQUE,       -- null for download-only coupons
  title               TEXT NOT NULL,
  type                TEXT NOT NULL CHECK (type IN ('DISCOUNT', 'EXTRA_EARN')),
  minimum_amount      INTEGER NOT NULL DEFAULT 0 CHECK (minimum_amount >= 0),
  starts_at           TEXT,
  expires_at          TEXT,
  platform            TEXT CHECK (platform IS NULL OR platform IN ('WEB', 'AND_PLAY', 'AND_PLUS', 'IOS_APP')),
  reward_type         TEXT NOT NULL CHECK (reward_type IN ('COIN', 'MILEAGE', 'ROULETTE_TICKET')),
  reward_amount       INTEGER NOT NULL CHECK (reward_amount > 0),
  reward_lot_type     TEXT CHECK (reward_lot_type IS NULL OR reward_lot_type IN ('COIN', 'FREE_COIN', 'BONUS', 'MILEAGE')),
  reward_expires_days INTEGER CHECK (reward_expires_days IS NULL OR reward_expires_days > 0),
  stock               INTEGER CHECK (stock IS NULL OR stock >= 0),   -- null: unlimited
  used_count          INTEGER NOT NULL DEFAULT 0 CHECK (used_count >= 0),
  is_downloadable     INTEGER NOT NULL DEFAULT 0 CHECK (is_downloadable IN (0, 1)),
  created_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CHECK (stock IS NULL OR used_count <= stock)
);

CREATE TABLE coupon_redemptions (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  coupon_id      INTEGER NOT NULL REFERENCES coupons (id),
  user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  downloaded_at  TEXT,
  used_at        TEXT,
  created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (user_id, coupon_id)
);

-- Gift box tickets (spec §3: rental and purchase tickets).
CREATE TABLE gifts (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id          INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind             TEXT NOT NULL CHECK (kind IN ('RENT', 'POSSESSION')),
  series_id        INTEGER REFERENCES series (id),
  episode_id       INTEGER REFERENCES episodes (id),
  title            TEXT NOT NULL,
  sender_kind      TEXT NOT NULL DEFAULT 'MAIL' CHECK (sender_kind IN ('MAIL', 'USER')),
  given_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  used_at          TEXT,
  used_episode_id  INTEGER REFERENCES episodes (id),
  expires_at       TEXT,
  CHECK (series_id IS NOT NULL OR episode_id IS NOT NULL)
);
CREATE INDEX gifts_user ON gifts (user_id, given_at);

-- ───────────────────────────── community ─────────────────────────────

CREATE TABLE comments (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  series_id    INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
  episode_id   INTEGER REFERENCES episodes (id) ON DELETE CASCADE,
  user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  parent_id    INTEGER REFERENCES comments (id) ON DELETE CASCADE,   -- replies
  body         TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 500),
  state        TEXT CHECK (state IS NULL OR state IN ('REPORT', 'BLIND', 'DELETED', 'BLOCK')),  -- null: visible
  like_count   INTEGER NOT NULL DEFAULT 0 CHECK (like_count >= 0),
  reply_count  INTEGER NOT NULL DEFAULT 0 CHECK (reply_count >= 0),
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX comments_episode ON comments (episode_id, created_at);
CREATE INDEX comments_series ON comments (series_id, created_at);
CREATE INDEX comments_user ON comments (user_id, created_at);
CREATE INDEX comments_parent ON comments (parent_id, created_at) WHERE parent_id IS NOT NULL;

CREATE TABLE comment_reactions (
  comment_id  INTEGER NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
  user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind        TEXT NOT NULL CHECK (kind IN ('LIKE', 'DISLIKE', 'REPORT')),
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (comment_id, user_id, kind)
);

-- comment/block-user
CREATE TABLE user_blocks (
  user_id          INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  blocked_user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (user_id, blocked_user_id)
);

-- Prohibited words for comments (spec §5).
CREATE TABLE banned_words (
  word  TEXT PRIMARY KEY COLLATE NOCASE
);

-- Contact requests (QnA): up to 3 images (R2 keys, JSON array).
CREATE TABLE qnas (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  category     TEXT NOT NULL DEFAULT 'ETC',
  title        TEXT NOT NULL,
  body         TEXT NOT NULL,
  email        TEXT,
  images       TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(images) AND json_array_length(images) <= 3),
  status       TEXT NOT NULL DEFAULT 'WAIT' CHECK (status IN ('WAIT', 'COMPLETED')),
  answer       TEXT,
  answered_at  TEXT,
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX qnas_user ON qnas (user_id, created_at);

-- ───────────────────────────── events ─────────────────────────────

CREATE TABLE events (
  id                 INTEGER PRIMARY KEY AUTOINCREMENT,
  kind               TEXT NOT NULL CHECK (kind IN ('ROULETTE', 'ATTENDANCE', 'SIGNUP', 'PROMOTION')),
  title              TEXT NOT NULL,
  description        TEXT NOT NULL DEFAULT '',
  starts_at          TEXT NOT NULL,
  ends_at            TEXT NOT NULL,
  adult_restriction  TEXT CHECK (adult_restriction IS NULL OR adult_restriction IN ('ADULT', 'NON_ADULT')),
  config             TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(config)),   -- e.g. roulette prizes and weights
  image_key          TEXT,
  is_active          INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CHECK (ends_at > starts_at)
);
CREATE INDEX events_period ON events (kind, starts_at, ends_at);

-- Tickets to play an event (roulette spins); consumed by an entry.
CREATE TABLE event_tickets (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id    INTEGER REFERENCES events (id),           -- null: valid for any event of its kind
  user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind        TEXT NOT NULL DEFAULT 'ROULETTE' CHECK (kind IN ('ROULETTE', 'ATTENDANCE', 'SIGNUP', 'PROMOTION')),
  source      TEXT NOT NULL CHECK (source IN ('PAYMENT', 'COUPON', 'MILEAGE', 'REWARD', 'EVENT', 'ADMIN', 'OFFERWALL')),
  ref         TEXT,
  expires_at  TEXT,
  used_at     TEXT,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX event_tickets_user ON event_tickets (user_id, kind, used_at);

CREATE TABLE event_entries (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id      INTEGER NOT NULL REFERENCES events (id),
  user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  ticket_id     INTEGER UNIQUE REFERENCES event_tickets (id),
  prize_type    TEXT CHECK (prize_type IS NULL OR prize_type IN ('COIN', 'FREE_COIN', 'BONUS', 'MILEAGE', 'NONE')),
  prize_amount  INTEGER NOT NULL DEFAULT 0 CHECK (prize_amount >= 0),
  result        TEXT CHECK (result IS NULL OR json_valid(result)),
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX event_entries_user ON event_entries (event_id, user_id, created_at);

-- ───────────────────────────── reader state ─────────────────────────────

-- Notifications; kept 30 days (spec §9), older rows are purged.
CREATE TABLE alarms (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind        TEXT NOT NULL DEFAULT 'NOTICE' CHECK (kind IN ('NOTICE', 'EPISODE', 'GIFT', 'COIN', 'COMMENT', 'EVENT', 'QNA')),
  title       TEXT NOT NULL,
  body        TEXT NOT NULL DEFAULT '',
  link        TEXT,
  read_at     TEXT,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX alarms_user ON alarms (user_id, created_at);
CREATE INDEX alarms_created ON alarms (created_at);

-- Library: favourites.
CREATE TABLE favorites (
  user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  series_id   INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (user_id, series_id)
);
CREATE INDEX favorites_user_recent ON favorites (user_id, created_at);

-- Library: recent reading, one row per series (last episode read and where in it, 0..1).
CREATE TABLE reading_progress (
  user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  series_id   INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
  episode_id  INTEGER NOT NULL REFERENCES episodes (id) ON DELETE CASCADE,
  position    REAL NOT NULL DEFAULT 0 CHECK (position >= 0 AND position <= 1),
  updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (user_id, series_id)
);
CREATE INDEX reading_progress_recent ON reading_progress (user_id, updated_at);
