-- 0011_delivery: the delivery log of mail and SMS sent through a real provider (issue 22), and the readers'
-- replies by mail to a support answer.
--
-- A deployed edition stores no message body, code or link: one row per message handed to Cloudflare Email
-- Service or Twilio with its template, the recipient as a keyed hash (HMAC under the pepper), the provider's
-- message id and the outcome. `dedupe_key` (a keyed hash of request id and message) makes a request hand one
-- message over at most once. The local run keeps using the outbox table of 0001.
CREATE TABLE deliveries (
  id                   INTEGER PRIMARY KEY AUTOINCREMENT,
  dedupe_key           TEXT NOT NULL UNIQUE,
  channel              TEXT NOT NULL CHECK (channel IN ('MAIL', 'SMS')),
  template             TEXT NOT NULL,
  recipient_hash       TEXT NOT NULL,
  provider             TEXT NOT NULL,
  provider_message_id  TEXT,
  status               TEXT NOT NULL CHECK (status IN ('SENDING', 'SENT', 'FAILED', 'REJECTED', 'TIMEOUT')),
  error                TEXT,
  created_at           TEXT NOT NULL,
  updated_at           TEXT NOT NULL
);
CREATE INDEX deliveries_recipient ON deliveries (recipient_hash, id DESC);
CREATE INDEX deliveries_created ON deliveries (created_at);

-- A reader's reply by mail to a support answer (the worker's email() handler): the text only (images and other
-- attachments are dropped), on the question it answers; the question waits for support again.
CREATE TABLE qna_replies (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  qna_id      INTEGER NOT NULL REFERENCES qnas (id) ON DELETE CASCADE,
  body        TEXT NOT NULL,
  created_at  TEXT NOT NULL
);
CREATE INDEX qna_replies_qna ON qna_replies (qna_id, id);
