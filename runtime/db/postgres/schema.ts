/**
 * Postgres schema, versioned like runtime/db/sqlite/schema.ts (append only; index + 1 is the version kept in
 * schema_version). Amounts are exact decimal text, as in SQLite; sums use numeric. Times are ms (bigint).
 */
export const PG_MIGRATIONS: string[] = [
  `CREATE TABLE stats_daily (
     day text NOT NULL, slug text NOT NULL,
     calls bigint NOT NULL DEFAULT 0, errors bigint NOT NULL DEFAULT 0, tokens bigint NOT NULL DEFAULT 0, demo_calls bigint NOT NULL DEFAULT 0,
     PRIMARY KEY (day, slug));
   CREATE TABLE demo_quota (day text NOT NULL, client text NOT NULL, count integer NOT NULL, PRIMARY KEY (day, client));
   CREATE TABLE payments (
     id bigserial PRIMARY KEY,
     payer text NOT NULL, nonce text NOT NULL,
     slug text NOT NULL, tier text NOT NULL, amount text NOT NULL, network text NOT NULL,
     state text NOT NULL, tx_hash text, reason text, request_id text NOT NULL,
     valid_before bigint NOT NULL, x402_version integer NOT NULL,
     payload text NOT NULL, requirements text NOT NULL,
     created_at bigint NOT NULL, updated_at bigint NOT NULL,
     settled_at bigint, gas_used numeric, gas_price numeric,
     instance text NOT NULL);
   CREATE UNIQUE INDEX payments_authorization ON payments (payer, nonce) WHERE state <> 'released';
   CREATE INDEX payments_state ON payments (state) WHERE state NOT IN ('settled', 'released', 'failed');
   CREATE INDEX payments_inflight ON payments (payer) WHERE state IN ('verified', 'settling', 'pending');
   CREATE INDEX payments_settled ON payments (settled_at) WHERE state = 'settled';
   CREATE TABLE payment_events (
     seq bigserial PRIMARY KEY, payment_id bigint NOT NULL REFERENCES payments(id), state text NOT NULL,
     detail text, at bigint NOT NULL);
   CREATE INDEX payment_events_payment ON payment_events (payment_id);
   CREATE TABLE paid_results (
     payment_id bigint PRIMARY KEY REFERENCES payments(id),
     payer text NOT NULL, nonce text NOT NULL, payment_key text, request_hash text NOT NULL,
     expires_at bigint NOT NULL, created_at bigint NOT NULL, size integer NOT NULL DEFAULT 0,
     receipt text, body text);
   CREATE INDEX paid_results_authorization ON paid_results (payer, nonce);
   CREATE UNIQUE INDEX paid_results_key ON paid_results (payer, payment_key) WHERE payment_key IS NOT NULL;
   CREATE INDEX paid_results_expiry ON paid_results (expires_at);
   CREATE TABLE refusals (key text PRIMARY KEY, window_start bigint NOT NULL, count integer NOT NULL);`,
  `CREATE TABLE payer_cooldowns (payer text PRIMARY KEY, until_ms bigint NOT NULL, strikes integer NOT NULL);`,
  `CREATE TABLE error_codes_daily (
     day text NOT NULL, slug text NOT NULL, code text NOT NULL, status integer NOT NULL, count bigint NOT NULL,
     PRIMARY KEY (day, slug, code, status));
   CREATE TABLE admin_state (name text PRIMARY KEY, value bigint NOT NULL);`,
  // An authorization is (network, payer, nonce): the same nonce signed on two chains is two payments (#24).
  `DROP INDEX payments_authorization;
   CREATE UNIQUE INDEX payments_authorization ON payments (network, payer, nonce) WHERE state <> 'released';`,
  // The failed runs of one authorization (PgLedger.failedRuns, read on every paid call): its released rows only.
  `CREATE INDEX payments_released ON payments (network, payer, nonce) WHERE state = 'released';`,
  // Payment channels (x402 batch-settlement, runtime/db/postgres/channels.ts), as in SQLite; amounts are numeric.
  `CREATE TABLE channels (
     channel_id text PRIMARY KEY, network text NOT NULL, payer text NOT NULL, config text NOT NULL,
     charged numeric NOT NULL, signed_max numeric NOT NULL, signature text NOT NULL,
     balance numeric NOT NULL, total_claimed numeric NOT NULL, withdraw_requested_at bigint NOT NULL,
     refund_nonce numeric NOT NULL, synced_at bigint NOT NULL,
     claimed numeric NOT NULL, first_unclaimed_at bigint, last_request_at bigint NOT NULL, created_at bigint NOT NULL);
   CREATE INDEX channels_unclaimed ON channels (network, first_unclaimed_at) WHERE charged <> claimed;
   CREATE INDEX channels_recent ON channels (last_request_at);
   CREATE TABLE channel_leases (channel_id text PRIMARY KEY, holder text NOT NULL, until_ms bigint NOT NULL);
   CREATE TABLE channel_charges (
     channel_id text NOT NULL, cumulative numeric NOT NULL, amount numeric NOT NULL, slug text NOT NULL, at bigint NOT NULL,
     PRIMARY KEY (channel_id, cumulative));
   CREATE TABLE channel_txs (
     id bigserial PRIMARY KEY, network text NOT NULL, kind text NOT NULL, tx text NOT NULL, amount numeric NOT NULL,
     channels integer NOT NULL, gas_used numeric, gas_price numeric, at bigint NOT NULL);
   CREATE INDEX channel_txs_kind ON channel_txs (network, kind);`,
  // Sponsored gas per payer, as in SQLite.
  `ALTER TABLE channel_txs ADD COLUMN payer text;
   ALTER TABLE channel_txs ADD COLUMN channel_id text;
   CREATE INDEX channel_txs_payer ON channel_txs (network, payer, kind) WHERE payer IS NOT NULL;
   CREATE INDEX channels_payer ON channels (payer, network);`,
  // The protocol that admitted each payment, written at reservation by the server, as in SQLite.
  `ALTER TABLE payments ADD COLUMN protocol text NOT NULL DEFAULT 'x402';
   UPDATE payments SET protocol = 'mpp' WHERE payload LIKE '%"org.paymentauth":%';`,
]
