-- 0034: canned support replies (issue 39 point 6; `npm run ops -- support canned list|set`, `support reply <id> --canned
-- <name>`): the texts support answers the usual questions with, one per name and language (this edition's locale; each
-- edition has its own database). An answer made from one is an answer like any other (`qnas.answer`).
CREATE TABLE support_replies (
  name        TEXT NOT NULL CHECK (length(name) BETWEEN 2 AND 40),
  lang        TEXT NOT NULL,
  body        TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
  updated_by  TEXT NOT NULL,
  updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (name, lang)
);
