/**
 * The storage contract: every store interface and row type, engine-neutral. Two implementations: the embedded
 * SQLite (runtime/db/sqlite/; synchronous, so a call costs no await on the hot path) and a shared Postgres for N
 * instances (runtime/db/postgres/). Neither engine imports the other; runtime/db/open.ts alone picks one. Every
 * method may return a promise: callers always `await` (awaiting a plain value is free of I/O). Adding a store:
 * runtime/db/README.md.
 */
export type Awaitable<T> = T | Promise<T>

/** Everything the server keeps, on one engine: the embedded SQLite file, or a Postgres shared by N instances. */
export interface Storage {
  kind: 'sqlite' | 'postgres'
  ledger: LedgerStore
  stats: StatsStore
  quota: QuotaStore
  results: ResultStoreLike
  /** Costly payment refusals per client / payer per minute (in memory on SQLite: one process). */
  refusals: ThrottleStore
  /** Failing paid runs per payer per 10 minutes (runtime/db/throttle.ts; in memory on SQLite). */
  failingRuns: ThrottleStore
  /** Failed console sign-ins per client per 5 minutes (in memory on SQLite; shared by every instance on Postgres). */
  signIns: ThrottleStore
  /** The operator console's reads. */
  admin: AdminReads
  /** The console's error answers by code (batched like the stats counters) and its session generation. */
  errorCounts: ErrorCountStore
  sessionGeneration: SessionGenerationStore
  /** Payment channels (x402 batch-settlement): state per channel, charges, claims and sweeps. */
  channels: ChannelStore
  /** True when the database answers (within 2 s). */
  ping(): Promise<boolean>
  /** Flushes and closes (stats, results, connections). */
  close(): Promise<void>
}

export interface LedgerStore extends PayerLedger {
  /** Atomic reservation of one authorization (network, payer, nonce): the row id, or null when it is already in use. */
  reserve(r: Reservation): Awaitable<number | null>
  transition(id: number, state: PaymentState, detail?: { tx?: string; reason?: string }): Awaitable<void>
  /**
   * How many times authorization (payer, nonce) ran a handler that failed (its rows released with a reason starting
   * FAILED_RUN_REASON): the gate refuses it after MAX_FAILED_RUNS (runtime/pay/schemes/exact/gate.ts).
   */
  failedRuns(network: string, payer: string, nonce: string): Awaitable<number>
  /** Marks a payment settled exactly once: true when this call made the change. */
  settleOnce(id: number, detail?: { tx?: string; reason?: string } & SettlementGas): Awaitable<boolean>
  get(id: number): Awaitable<PaymentRow | null>
  byState(states: PaymentState[]): Awaitable<PaymentRow[]>
  /** Sum of settled amounts (atomic units) on `network`, or on every network. */
  settledTotal(network?: string): Awaitable<bigint>
  /** Settled payments per UTC day (of settlement), network and service since `sinceMs`. */
  settledByDay(sinceMs: number): Awaitable<SettledRow[]>
  averageSettlementCost(sinceMs: number, limit?: number): Awaitable<bigint | null>
  events(id: number): Awaitable<Array<{ state: string; detail: string | null }>>
  /** Shared databases only: runs `fn` when no other instance is running it (a session advisory lock); else skips. */
  exclusively?<T>(name: string, fn: () => Promise<T>): Promise<T | undefined>
  /** This instance's id, stamped on every row it reserves (shared databases). */
  readonly instanceId?: string
  /** Shared databases only: payer cool-downs seen by every instance (else the gate's in-memory PayerCooldowns). */
  readonly cooldowns?: CooldownStore
}

/**
 * Payer cool-downs after a settlement failed once its payment had verified (runtime/db/cooldowns.ts in memory;
 * a shared table on Postgres). Addresses are case-insensitive.
 */
export interface CooldownStore {
  /** Milliseconds of cool-down left for `payer` (0 when none). */
  coolingFor(payer: string): Awaitable<number>
  /** Starts or extends the payer's cool-down (base, doubling with repeats, capped); returns its length (ms). */
  strike(payer: string): Awaitable<number>
}

/**
 * The per-payer in-flight limit, read from the ledger on both engines (runtime/pay/schemes/exact/payer-funds.ts): the amounts in
 * flight are the payer's rows, checked and moved to `verified` in one transaction under the payer's lock (an advisory
 * lock on Postgres, so the limit holds across instances; BEGIN IMMEDIATE on SQLite).
 */
export interface PayerLedger {
  /**
   * How far the clocks of the processes writing this ledger may differ (ms): SKEW_MS on Postgres (N instances), 0 on
   * SQLite (one process, one clock).
   */
  readonly clockSkewMs: number
  /**
   * Moves reservation `id` to `verified` under the payer's lock (one transaction) when the payer's other amounts in
   * flight (verified, settling, and pending ones whose authorization may still land) plus `amount` fit in `balance`
   * less what the payer settled since the balance was read (`readAtMs`, less `clockSkewMs`; any instance).
   * `balance` null (not read): 'ok' only when nothing else is in flight and none of the payer's payments settled
   * since `sinceMs` (then the verification's own balance check still stands), else 'recheck' (read the balance and
   * call again). 'short': the balance does not cover it.
   */
  verifyWithin(
    id: number,
    payer: string,
    amount: bigint,
    balance: { value: bigint; readAtMs: number } | null,
    sinceMs: number,
  ): Awaitable<PayerCheck>
}

/** What `verifyWithin` decided, with the figures it used (atomic units). */
export interface PayerCheck {
  outcome: 'ok' | 'short' | 'recheck'
  /** The payer's other amounts in flight. */
  inFlight: bigint
  /** The part of `inFlight` whose transfer may already have been sent (settling, pending): it may show in a read. */
  sent: bigint
  /** What the payer settled since the balance was read (0 without a balance). */
  spent: bigint
}

export interface StatsStore {
  record(slug: string, add: Partial<Record<Counter, number>>): void
  flush(): Awaitable<void>
  rows(days?: number): Awaitable<Array<{ day: string; slug: string } & Record<Counter, number>>>
  close(): Awaitable<void>
}

export interface QuotaStore {
  consume(client: string): Awaitable<QuotaResult>
  refund(client: string, q: QuotaResult): Awaitable<void>
}

export interface ResultStoreLike {
  byAuthorization(network: string, payer: string, nonce: string): Awaitable<StoredResult | null>
  byKey(payer: string, key: string): Awaitable<StoredResult | null>
  claim(k: KeepInput & { key: string }): Awaitable<StoredResult | null>
  keep(k: KeepInput, body: string): Awaitable<boolean>
  setReceipt(paymentId: number, receipt: string): Awaitable<void>
  discard(paymentId: number): Awaitable<void>
  purge(): Awaitable<number>
  close(): Awaitable<void>
}

/**
 * Fixed-window counter per key (runtime/db/throttle.ts in memory; a shared table on Postgres, one bucket per use:
 * payment refusals, console sign-ins), each with its own limit and window.
 */
export interface ThrottleStore {
  blocked(key: string): Awaitable<boolean>
  hit(key: string): Awaitable<void>
  retryAfter(key: string): Awaitable<number>
}

/** One error answer count: an /api/<slug> answer with status >= 400, by its error code. */
export interface ErrorCountRow {
  slug: string
  code: string
  status: number
  count: number
}

/**
 * Error answers by code per service per UTC day, for the console's "errors by code" panel. Like the traffic
 * counters: `record` only adds to memory; `flush` (every second, and on close) writes the batch in one
 * transaction / statement, so the hot path never writes per error. Reads include this instance's pending counts;
 * other instances' counts arrive within a flush.
 */
export interface ErrorCountStore {
  record(slug: string, status: number, code: string): void
  flush(): Awaitable<void>
  /** Counts summed over the last `days` UTC days (today included), largest first. */
  rows(days?: number): Awaitable<ErrorCountRow[]>
  close(): Awaitable<void>
}

/**
 * The console's session generation: one integer per database. A session cookie names the generation it was
 * issued in; signing out moves the generation on, so every earlier cookie stops working on every instance.
 */
export interface SessionGenerationStore {
  current(): Awaitable<number>
  /** Moves to the next generation and returns it. */
  next(): Awaitable<number>
}

// ---- The payment ledger ----

/**
 * reserved -> verified -> settling -> settled | pending | failed; reserved/verified -> released (handler failed
 * or payment invalid: the authorization may be used again) or failed.
 */
export type PaymentState = 'reserved' | 'verified' | 'settling' | 'pending' | 'settled' | 'failed' | 'released'

export interface PaymentRow {
  id: number
  payer: string
  nonce: string
  slug: string
  tier: string
  amount: string
  network: string
  state: PaymentState
  tx_hash: string | null
  reason: string | null
  request_id: string
  valid_before: number
  x402_version: number
  payload: string
  requirements: string
  created_at: number
  updated_at: number
  /** When the row became settled (ms); null otherwise. */
  settled_at: number | null
  /** Gas used by the settlement transaction and its effective price (wei), when known. */
  gas_used: number | null
  gas_price: number | null
  /** The instance that reserved the row (shared Postgres only). */
  instance?: string
  /** The protocol that admitted the payment ('x402' or 'mpp'), recorded when the row was reserved. */
  protocol: 'x402' | 'mpp'
}

/** What a settlement cost, as reported by the facilitator (decimal strings). */
export interface SettlementGas {
  gasUsed?: string
  effectiveGasPrice?: string
}

/** Settled payments of one UTC day, network and service: exact integer sums as decimal strings. */
export interface SettledRow {
  day: string
  /** The CAIP-2 network the payments settled on (each network's revenue is its own figure). */
  network: string
  slug: string
  paid_calls: number
  revenue_atomic: string
  /** Sum of gas_used × gas_price over the rows whose gas is known (wei). */
  gas_wei: string
  /**
   * The protocol the payments came by (ledger rows: their `protocol` column, written at reservation from the plugin
   * that admitted the payment; channel charges: none, i.e. x402).
   */
  protocol?: 'x402' | 'mpp'
}

export interface Reservation {
  payer: string
  nonce: string
  slug: string
  tier: string
  amount: string
  network: string
  requestId: string
  validBefore: number
  x402Version: number
  payload: unknown
  requirements: unknown
  /** The protocol of the plugin that admitted the payment (the server's knowledge, never the payload's); x402 when unset. */
  protocol?: 'x402' | 'mpp'
}

// ---- Traffic counters, quota, kept results ----

/** Traffic counters. Paid calls and revenue are not counters: they are read from the ledger's settled rows. */
export type Counter = 'calls' | 'errors' | 'tokens' | 'demo_calls'

export interface QuotaResult {
  allowed: boolean
  used: number
  limit: number
  remaining: number
  /** ISO time of the next UTC midnight, when the quota resets. */
  resetsAt: string
  /** The UTC day the call was counted on (for a refund). */
  day: string
}

/** A kept result joined with its payment's ledger row. */
export interface StoredResult {
  payment_id: number
  payer: string
  nonce: string
  payment_key: string | null
  request_hash: string
  expires_at: number
  /** Base64 PAYMENT-RESPONSE value sent with the first answer (null until settled in-request). */
  receipt: string | null
  /** The JSON body of the 200 answer (null: a claim still in flight, or too large / evicted). */
  body: string | null
  state: PaymentState
  tx_hash: string | null
  network: string
  /** The ledger's copy of the decoded payment header (JSON). */
  payload: string
}

export interface ResultLimits {
  /** A single body larger than this is not kept. */
  maxBodyBytes: number
  /** Total bytes of kept bodies; past it, the oldest bodies are dropped (their rows stay until expiry). */
  maxTotalBytes: number
  /**
   * Kept bodies are written in one transaction per this many ms (default 50), so a paid call costs no disk flush
   * of its own; any lookup writes the pending ones first. 0 writes at once.
   */
  flushMs?: number
}

export interface KeepInput {
  paymentId: number
  payer: string
  nonce: string
  key: string | null
  requestHash: string
  /** Unix seconds after which the row is purged. */
  expiresAt: number
}

// ---- The operator console ----

export interface AdminPayment {
  id: number
  state: string
  slug: string
  tier: string
  /** Atomic USDC units (6 decimals), as a decimal string. */
  amount: string
  amount_usd: number
  payer: string
  network: string
  tx_hash: string | null
  reason: string | null
  request_id: string
  gas_used: string | null
  gas_price_wei: string | null
  /** gas_used × gas_price in wei, when both are known. */
  gas_cost_wei: string | null
  created_at: string
  updated_at: string
  settled_at: string | null
}

export interface DayMoney {
  day: string
  revenue_atomic: string
  revenue_usd: number
  gas_wei: string
  settled: number
}

export interface ServiceMoney {
  slug: string
  revenue_atomic: string
  revenue_usd: number
  gas_wei: string
  settled: number
  avg_gas_used: number | null
}

/** One (UTC day, network, service) cell of settled payments, as both engines' aggregation returns it. */
export interface MoneyCell {
  day: string
  network: string
  slug: string
  settled: number | string
  revenue_atomic: string
  gas_wei: string
  /** Sum of gas_used over the rows whose gas is known, and how many they are (for the average). */
  gas_used: string
  with_gas: number | string
}

/** One network's settled money over the window. */
export interface NetworkMoneyTotal {
  network: string
  revenue_atomic: string
  revenue_usd: number
  gas_wei: string
  settled: number
}

/** The console's money view: days and services on `network` (the primary one), and every network's totals. */
export interface Money {
  network: string
  days: DayMoney[]
  services: ServiceMoney[]
  /** `network` first (even without settlements), then the others by name; never one sum of different chains. */
  networks: NetworkMoneyTotal[]
}

/** The console's reads, on either engine (AdminQueries on SQLite, PgAdminQueries on Postgres). */
export interface AdminReads {
  payments(o: { limit: number; state?: string; slug?: string }): Awaitable<AdminPayment[]>
  payment(id: number): Awaitable<AdminPayment | null>
  unsettledPayments(): Awaitable<AdminPayment[]>
  stateCounts(): Awaitable<Record<string, number>>
  events(id: number): Awaitable<Array<{ state: string; detail: string | null; at: string }>>
  money(days: number, network: string): Awaitable<Money>
  paidFailures(days: number): Awaitable<Array<{ slug: string; code: string; status: number | null; count: number }>>
  demoQuota(days: number): Awaitable<Array<{ day: string; clients: number; calls: number }>>
}

/** The immutable configuration of a payment channel (x402 `batch-settlement` ChannelConfig); its EIP-712 hash is its id. */
export interface StoredChannelConfig {
  payer: `0x${string}`
  payerAuthorizer: `0x${string}`
  receiver: `0x${string}`
  receiverAuthorizer: `0x${string}`
  token: `0x${string}`
  withdrawDelay: number
  salt: `0x${string}`
}

/** A channel's on-chain fields as last read (balance, totalClaimed, pending withdrawal, refund nonce) and when. */
export interface ChannelMirror {
  balance: bigint
  totalClaimed: bigint
  /** Unix seconds when the payer started a timed withdrawal; 0 when none is pending. */
  withdrawRequestedAt: number
  refundNonce: bigint
  /** When these were read (ms). */
  syncedAt: number
}

/**
 * One payment channel as this server keeps it (the spec's "Per-Channel State"), amounts in atomic units. `charged`
 * is what the server has earned from it (cumulative), `signedMax` and `signature` the payer's latest voucher (the
 * claimable proof for `charged`), `claimed` what this server has claimed on chain for it.
 */
export interface Channel extends ChannelMirror {
  id: `0x${string}`
  network: string
  config: StoredChannelConfig
  /** The payer, lowercase. */
  payer: string
  charged: bigint
  signedMax: bigint
  /** The voucher signature for `signedMax` ('' before the first charge). */
  signature: `0x${string}` | ''
  claimed: bigint
  /** When the oldest charge not yet claimed was committed (ms); null when everything charged is claimed. */
  firstUnclaimedAt: number | null
  /** When the last paid request was committed (ms). */
  lastRequestAt: number
}

/** A channel the server starts keeping (first deposit, or a voucher on a channel it had no record of). */
export interface ChannelOpen {
  id: `0x${string}`
  network: string
  config: StoredChannelConfig
  mirror: ChannelMirror
}

/** One served request's charge: `charged` moves from `from` to `to` (to > from) under the voucher `signedMax`. */
export interface ChargeCommit {
  channelId: `0x${string}`
  /** The lease holder committing (its lease is released with the commit). */
  holder: string
  from: bigint
  to: bigint
  signedMax: bigint
  signature: `0x${string}`
  /** The service the charge paid for (per-service earnings). */
  slug: string
  at: number
}

/** A transaction this server sent for its channels: a deposit it sponsored, a claim, a sweep (`settle`), a refund. */
export interface ChannelTx {
  network: string
  kind: 'deposit' | 'claim' | 'sweep' | 'refund'
  tx: string
  /** Deposited, newly claimed, swept or refunded amount (atomic units). */
  amount: bigint
  /** How many channels the transaction covered. */
  channels: number
  gasUsed?: bigint
  gasPrice?: bigint
  at: number
  /** The payer a deposit or refund was sent for (lowercase), and its channel: sponsored gas per payer. */
  payer?: string
  channelId?: string
}

/**
 * What this server sponsored for one payer on one network (docs/channels.md "Sponsored gas"): its deposits and
 * cooperative refunds, their gas (wei, the rows whose gas is known) and what its channels bought (atomic units).
 */
export interface PayerSponsorship {
  payer: string
  network: string
  deposits: number
  refunds: number
  gasWei: bigint
  earned: bigint
}

/**
 * A payer's standing for sponsored transactions: whether its latest cooperative refund (in the window asked) returned
 * a channel that bought nothing since its previous refund, with nothing bought on any of its channels since (`drained`).
 */
export interface PayerStanding {
  drained: boolean
}

/** One day's channel transactions of one kind on one network (amounts in atomic units, gas in wei, as text). */
export interface ChannelTxDay {
  day: string
  network: string
  kind: ChannelTx['kind']
  txs: number
  amount: string
  gas_wei: string
}

/** The money of the channels on one network (atomic units; gas in wei), all time or since a moment. */
export interface ChannelTotals {
  /** Channels kept (with a window: channels used in it). */
  channels: number
  /** Paid requests committed, and what they earned (sum of charges). */
  charges: number
  earned: bigint
  claimed: bigint
  swept: bigint
  deposited: bigint
  /** Gas paid for deposits, claims, sweeps and refunds (the rows whose gas is known). */
  gasWei: bigint
  /** Of which the deposits and refunds sent for payers (sponsored gas). */
  sponsoredGasWei: bigint
  /** Transactions by kind. */
  txs: Record<ChannelTx['kind'], number>
}

/**
 * Payment-channel state (x402 `batch-settlement`) on both engines. The paid call's two doors use it: admission takes
 * the channel's lease (one request per channel at a time, across instances on Postgres; in memory on SQLite, one
 * process) and reads the channel; the commit after the handler succeeded moves `charged` with a compare-and-set,
 * durably, and releases the lease.
 * The claim engine lists channels due for a claim and records claims and sweeps.
 */
export interface ChannelStore {
  get(id: string): Awaitable<Channel | null>
  /**
   * Takes the channel's lease for `holder` until `untilMs` (the channel need not exist yet): true when taken, false
   * when another holder's lease is still running ("busy"). An expired lease is taken over.
   */
  lease(id: string, holder: string, untilMs: number, now: number): Awaitable<boolean>
  /** Releases `holder`'s lease (a failed handler, a refused payment); another holder's lease is left alone. */
  release(id: string, holder: string): Awaitable<void>
  /** Starts keeping a channel, or refreshes its on-chain mirror when it is kept already (charged stays). */
  open(c: ChannelOpen, now: number): Awaitable<Channel>
  /**
   * Commits one charge durably (fsync'd on SQLite) when `charged` is still `from`, records it (a second charge at
   * the same cumulative amount is impossible) and releases the holder's lease. False when `charged` moved: nothing
   * was written (the lease is released all the same).
   */
  commitCharge(c: ChargeCommit): Awaitable<boolean>
  /** Refreshes the on-chain mirror of a kept channel (the pending withdrawal watch, after a deposit or a refund). */
  mirror(id: string, m: ChannelMirror): Awaitable<void>
  /**
   * Channels on `network` with charges not yet claimed, oldest unclaimed first, at most `limit`: those whose
   * payer's unclaimed amount (over its channels on `network`) reaches `minUnclaimed`, whose oldest unclaimed charge
   * is older than `chargedBefore`, or whose payer started a withdrawal. With `all`, every channel with anything
   * unclaimed.
   */
  dueForClaim(
    network: string,
    q: { minUnclaimed: bigint; chargedBefore: number; all?: boolean },
    limit: number,
  ): Awaitable<Channel[]>
  /**
   * Channels on `network` with escrow left that this server has not claimed (balance > claimed), most recently used
   * first: the ones whose pending withdrawals and balances the claim engine keeps reading.
   */
  watched(network: string, limit: number): Awaitable<Channel[]>
  /**
   * Records a claim transaction: each channel's `claimed` moves up to `to` (never down); the transaction row carries
   * the amount newly claimed. Returns that amount.
   */
  recordClaim(
    tx: Omit<ChannelTx, 'kind' | 'amount' | 'channels'>,
    rows: Array<{ id: string; to: bigint }>,
  ): Awaitable<bigint>
  /** Records a deposit, sweep or refund transaction. */
  recordTx(tx: ChannelTx): Awaitable<void>
  /** Claimed on `network` and not swept yet, and when the last sweep was recorded (ms; 0 when never). */
  unswept(network: string): Awaitable<{ amount: bigint; lastSweepAt: number }>
  /**
   * The channels' money on `network` (every network when absent). With `since` (ms), only the charges and the
   * transactions at or after it, and the channels used since (last request); without it, all time.
   */
  totals(network?: string, since?: number): Awaitable<ChannelTotals>
  /** Channels for the console, most recently used first. */
  list(limit: number): Awaitable<Channel[]>
  /**
   * The channel charges since `sinceMs` by UTC day of the charge, network and service (the /stats books beside the
   * ledger's settled rows: paid calls and revenue; `gas_wei` is 0, the channels' gas is in `txsByDay`).
   */
  chargedByDay(sinceMs: number): Awaitable<SettledRow[]>
  /** The channels' transactions since `sinceMs` by UTC day, network and kind: count, amount and gas. */
  txsByDay(sinceMs: number): Awaitable<ChannelTxDay[]>
  /**
   * A payer's standing on `network` from its cooperative refunds since `since` (ms): the sponsorship guard,
   * docs/channels.md "Sponsored gas".
   */
  standing(network: string, payer: string, since: number): Awaitable<PayerStanding>
  /** What channel `id` bought since its latest recorded refund (all its charges when it was never refunded). */
  boughtSinceRefund(id: string): Awaitable<bigint>
  /**
   * The payers this server sponsored most gas for on `network` (every network when absent), since `since` (ms),
   * most gas first, at most `limit`.
   */
  sponsored(network: string | undefined, since: number, limit: number): Awaitable<PayerSponsorship[]>
}
