-- 0032: the operator audit trail (issue 39 point 5; docs/API.md "Operator API"). Every change through the operator API
-- (`/api/ops/*`, `npm run ops`) leaves one row of `ops_audit`: who (the operator's name: "root" for OPS_TOKEN, else a
-- named token of `operators`), when, what (the action, the method and path, the target as `<kind>:<id>`), the reason
-- the operator gave, the target before and after the change (JSON, secrets left out) and what else the change reported
-- (`detail`). Written in the change's own batch where the change is one batch (coins, refunds, operators), else right
-- after it. Kept: it is the record of what operators did (docs/SCALE.md "Retention").
CREATE TABLE ops_audit (
  id            INTEGER PRIMARY KEY,
  at            TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  operator      TEXT NOT NULL,
  action        TEXT NOT NULL,
  route         TEXT NOT NULL,
  target        TEXT,
  reason        TEXT,
  before_json   TEXT,
  after_json    TEXT,
  detail        TEXT,
  request_id    TEXT
);
CREATE INDEX ops_audit_target ON ops_audit (target, id);
CREATE INDEX ops_audit_operator ON ops_audit (operator, id);
CREATE INDEX ops_audit_at ON ops_audit (at);

-- Named operator tokens (`npm run ops -- operator add|revoke`): the token is shown once at its creation and stored here
-- only as its SHA-256 (hex). A revoked token is refused from its revocation on; its name may be given to a new token
-- (one live token per name). "root" is OPS_TOKEN's, never a row.
CREATE TABLE operators (
  id            INTEGER PRIMARY KEY,
  name          TEXT NOT NULL CHECK (name <> 'root'),
  token_hash    TEXT NOT NULL UNIQUE,
  created_by    TEXT NOT NULL,
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  revoked_at    TEXT
);
CREATE UNIQUE INDEX operators_live_name ON operators (name) WHERE revoked_at IS NULL;
