/** Versioned migrations: index + 1 is the schema version stored in PRAGMA user_version. Append only. */
export const MIGRATIONS: string[] = [
  `CREATE TABLE stats_daily (
     day TEXT NOT NULL, slug TEXT NOT NULL,
     calls INTEGER NOT NULL DEFAULT 0, paid_calls INTEGER NOT NULL DEFAULT 0,
     revenue_atomic INTEGER NOT NULL DEFAULT 0, errors INTEGER NOT NULL DEFAULT 0,
     tokens INTEGER NOT NULL DEFAULT 0, demo_calls INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (day, slug)) WITHOUT ROWID;
   CREATE TABLE demo_quota (
     day TEXT NOT NULL, client TEXT NOT NULL, count INTEGER NOT NULL,
     PRIMARY KEY (day, client)) WITHOUT ROWID;
   CREATE TABLE payments (
     id INTEGER PRIMARY KEY,
     payer TEXT NOT NULL, nonce TEXT NOT NULL,
     slug TEXT NOT NULL, tier TEXT NOT NULL, amount TEXT NOT NULL, network TEXT NOT NULL,
     state TEXT NOT NULL, tx_hash TEXT, reason TEXT, request_id TEXT NOT NULL,
     valid_before INTEGER NOT NULL, x402_version INTEGER NOT NULL,
     payload TEXT NOT NULL, requirements TEXT NOT NULL,
     created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
   CREATE UNIQUE INDEX payments_authorization ON payments (payer, nonce) WHERE state <> 'released';
   CREATE INDEX payments_state ON payments (state);
   CREATE TABLE payment_events (
     payment_id INTEGER NOT NULL REFERENCES payments(id), state TEXT NOT NULL,
     detail TEXT, at INTEGER NOT NULL);
   CREATE INDEX payment_events_payment ON payment_events (payment_id);`,
  // Paid results kept for collection again (runtime/db/sqlite/results.ts): one row per payment whose handler succeeded,
  // plus the payment-identifier claims of payments still in flight.
  `CREATE TABLE paid_results (
     payment_id INTEGER PRIMARY KEY REFERENCES payments(id),
     payer TEXT NOT NULL, nonce TEXT NOT NULL, payment_key TEXT, request_hash TEXT NOT NULL,
     expires_at INTEGER NOT NULL, created_at INTEGER NOT NULL, size INTEGER NOT NULL DEFAULT 0,
     receipt TEXT, body TEXT);
   CREATE INDEX paid_results_authorization ON paid_results (payer, nonce);
   CREATE UNIQUE INDEX paid_results_key ON paid_results (payer, payment_key) WHERE payment_key IS NOT NULL;
   CREATE INDEX paid_results_expiry ON paid_results (expires_at);`,
  // Revenue comes from settled ledger rows (not from buffered counters): when each row settled, and what its
  // settlement transaction cost in gas. stats_daily.paid_calls / revenue_atomic are no longer written.
  `ALTER TABLE payments ADD COLUMN settled_at INTEGER;
   ALTER TABLE payments ADD COLUMN gas_used INTEGER;
   ALTER TABLE payments ADD COLUMN gas_price INTEGER;
   UPDATE payments SET settled_at = updated_at WHERE state = 'settled';
   CREATE INDEX payments_settled ON payments (settled_at, slug, amount, gas_used, gas_price) WHERE state = 'settled';`,
  // The console: error answers by code per service per day (runtime/db/sqlite/error-counts.ts), and the session
  // generation that signing out moves on (runtime/db/sqlite/admin-state.ts).
  `CREATE TABLE error_codes_daily (
     day TEXT NOT NULL, slug TEXT NOT NULL, code TEXT NOT NULL, status INTEGER NOT NULL, count INTEGER NOT NULL,
     PRIMARY KEY (day, slug, code, status)) WITHOUT ROWID;
   CREATE TABLE admin_state (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;`,
  // The in-flight hold (Ledger.verifyWithin) reads one payer's rows in flight on every paid call: index exactly
  // those (as on Postgres), so a busy payer costs what an idle one does.
  `CREATE INDEX payments_inflight ON payments (payer) WHERE state IN ('verified', 'settling', 'pending');`,
  // An authorization is (network, payer, nonce): the same nonce signed on two chains is two payments (#24). The
  // settled rows are summed per network (/stats, the console), so the covering index carries it.
  `DROP INDEX payments_authorization;
   CREATE UNIQUE INDEX payments_authorization ON payments (network, payer, nonce) WHERE state <> 'released';
   DROP INDEX payments_settled;
   CREATE INDEX payments_settled ON payments (settled_at, network, slug, amount, gas_used, gas_price) WHERE state = 'settled';`,
  // The failed runs of one authorization (Ledger.failedRuns, read on every paid call): its released rows only.
  `CREATE INDEX payments_released ON payments (network, payer, nonce) WHERE state = 'released';`,
  // Payment channels (x402 batch-settlement, runtime/db/sqlite/channels.ts): one row per channel, its lease (one request
  // at a time), every charge committed (one per cumulative amount), and the deposits, claims and sweeps sent.
  `CREATE TABLE channels (
     channel_id TEXT PRIMARY KEY, network TEXT NOT NULL, payer TEXT NOT NULL, config TEXT NOT NULL,
     charged TEXT NOT NULL, signed_max TEXT NOT NULL, signature TEXT NOT NULL,
     balance TEXT NOT NULL, total_claimed TEXT NOT NULL, withdraw_requested_at INTEGER NOT NULL,
     refund_nonce TEXT NOT NULL, synced_at INTEGER NOT NULL,
     claimed TEXT NOT NULL, first_unclaimed_at INTEGER, last_request_at INTEGER NOT NULL,
     created_at INTEGER NOT NULL) WITHOUT ROWID;
   CREATE INDEX channels_unclaimed ON channels (network, first_unclaimed_at) WHERE charged <> claimed;
   CREATE INDEX channels_recent ON channels (last_request_at);
   CREATE TABLE channel_leases (channel_id TEXT PRIMARY KEY, holder TEXT NOT NULL, until_ms INTEGER NOT NULL) WITHOUT ROWID;
   CREATE TABLE channel_charges (
     channel_id TEXT NOT NULL, cumulative TEXT NOT NULL, amount TEXT NOT NULL, slug TEXT NOT NULL, at INTEGER NOT NULL,
     PRIMARY KEY (channel_id, cumulative)) WITHOUT ROWID;
   CREATE TABLE channel_txs (
     id INTEGER PRIMARY KEY, network TEXT NOT NULL, kind TEXT NOT NULL, tx TEXT NOT NULL, amount TEXT NOT NULL,
     channels INTEGER NOT NULL, gas_used INTEGER, gas_price INTEGER, at INTEGER NOT NULL);
   CREATE INDEX channel_txs_kind ON channel_txs (network, kind);`,
  // Sponsored gas per payer (docs/channels.md "Sponsored gas"): a deposit or refund row names its payer and channel.
  `ALTER TABLE channel_txs ADD COLUMN payer TEXT;
   ALTER TABLE channel_txs ADD COLUMN channel_id TEXT;
   CREATE INDEX channel_txs_payer ON channel_txs (network, payer, kind) WHERE payer IS NOT NULL;
   CREATE INDEX channels_payer ON channels (payer, network);`,
  // The protocol that admitted each payment ('x402', or MPP's `evm` `charge`: 'mpp'), written at reservation by the
  // server from the plugin that admitted it, so /stats' per-protocol split never reads the payload, which a client
  // writes. Rows from before: the marker MPP credentials were stored with, as /stats read it until then. The settled
  // rows' covering index carries it (/stats groups by it).
  `ALTER TABLE payments ADD COLUMN protocol TEXT NOT NULL DEFAULT 'x402';
   UPDATE payments SET protocol = 'mpp' WHERE payload LIKE '%"org.paymentauth":%';
   DROP INDEX payments_settled;
   CREATE INDEX payments_settled ON payments (settled_at, network, slug, amount, gas_used, gas_price, protocol) WHERE state = 'settled';`,
]
