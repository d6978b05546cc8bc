import type { PaymentRow, PaymentState, Reservation, SettledRow, SettlementGas } from './sqlite/ledger'
import type { Counter } from './sqlite/stats'
import type { QuotaResult } from './sqlite/quota'
import type { KeepInput, StoredResult } from './sqlite/results'

/**
 * The one storage interface, with two implementations: the embedded SQLite (runtime/db/*.ts; synchronous, so a
 * call costs no await on the hot path) and a shared Postgres for N instances (runtime/db/postgres/*). Every method
 * may return a promise: callers always `await` (awaiting a plain value is free of I/O).
 */
export type Awaitable<T> = T | Promise<T>

export interface LedgerStore extends PayerLedger {
  /** Atomic reservation of one authorization (network, payer, nonce): the row id, or null when it is already in use. */
  reserve(r: Reservation): Awaitable<number | null>
  transition(id: number, state: PaymentState, detail?: { tx?: string; reason?: string }): Awaitable<void>
  /**
   * How many times authorization (payer, nonce) ran a handler that failed (its rows released with a reason starting
   * FAILED_RUN_REASON): the gate refuses it after MAX_FAILED_RUNS (runtime/pay/gate.ts).
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
  /** Shared databases only: payer cool-downs seen by every instance (else the gate's in-memory PayerGuard). */
  readonly cooldowns?: CooldownStore
}

/**
 * Payer cool-downs after a settlement failed once its payment had verified (runtime/pay/payer-guard.ts in memory;
 * a shared table on Postgres). Addresses are case-insensitive.
 */
export interface CooldownStore {
  /** Milliseconds of cool-down left for `payer` (0 when none). */
  coolingFor(payer: string): Awaitable<number>
  /** Starts or extends the payer's cool-down (base, doubling with repeats, capped); returns its length (ms). */
  strike(payer: string): Awaitable<number>
}

/** The start of a released row's reason when its handler ran and failed, e.g. `handler 502 UPSTREAM_ERROR` (counted by `failedRuns`). */
export const FAILED_RUN_REASON = 'handler '

/** How far the clocks of two instances may differ (ms): settlements this close before a balance read count as after it. */
export const SKEW_MS = 1000

/**
 * The per-payer in-flight limit, read from the ledger on both engines (runtime/pay/payer-hold.ts): the amounts in
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
 * Fixed-window counter per key (runtime/http/throttle.ts in memory; a shared table on Postgres, one bucket per use:
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
