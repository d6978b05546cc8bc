import type { Database, Statement } from 'bun:sqlite'
import { durably } from './connect'
import { FAILED_RUN_REASON, ledgerKey } from '../shared'
import type {
  LedgerStore,
  PayerCheck,
  PaymentRow,
  PaymentState,
  Reservation,
  SettledRow,
  SettlementGas,
} from '../store'

const MAX_INT64 = (1n << 63n) - 1n
/** A decimal string that fits an SQLite integer and whose product with the other factor still fits, or null. */
function gasFigures(g: SettlementGas): { used: bigint; price: bigint } | null {
  if (!g.gasUsed || !g.effectiveGasPrice || !/^\d{1,19}$/.test(g.gasUsed) || !/^\d{1,19}$/.test(g.effectiveGasPrice))
    return null
  const used = BigInt(g.gasUsed),
    price = BigInt(g.effectiveGasPrice)
  return used * price <= MAX_INT64 ? { used, price } : null
}

/**
 * Which ledger write must survive a power cut (an fsync'd commit, `durably` in ./connect.ts; the others commit
 * with synchronous=NORMAL: they survive a process crash, not a power cut). Exactly one per paid call: entering
 * `settling`, written before the transfer is broadcast. Write by write:
 * - reserved, verified, released (and a payment identifier's claim, results.ts): before that point. Lost, the row
 *   is as if the request never came: nothing was broadcast and no result was served, so the authorization is
 *   unused on chain and accepting it again is its first use. The fsync of the `settling` commit makes them durable
 *   anyway for the payments that go on (the WAL is written in order).
 * - settling (no tx): the point of no return. After a power cut the boot reconciliation finds it and asks the
 *   chain: the token's AuthorizationUsed(from, nonce) and Transfer logs prove the payment without a tx hash
 *   (runtime/pay/facilitator/settle/proof.ts), an unused authorization fails once expired (runtime/pay/schemes/exact/reconcile.ts).
 * - settling with the tx hash: lost, recovery searches the logs instead, over the blocks mined while the
 *   authorization was usable (found by timestamp, however long the server was down: settle/proof.ts).
 * - settled, pending, failed, and their reasons and gas: lost, the row is back to `settling`, which the
 *   reconciler settles or fails from the chain exactly like `pending`; /stats revenue is read from settled rows,
 *   so it matches the chain again once reconciled.
 * - kept results (results.ts) are written before the durable commit (`beforeDurable`), so they are covered by it.
 */
const mustSurvivePowerCut = (state: PaymentState, detail: { tx?: string }) =>
  state === 'settling' && detail.tx === undefined

/** Under load, two group commits of `settling` rows are at least this far apart (ms), as the channels' charges are. */
const SETTLING_SPACING_MS = 3

/** The payment ledger: one row per attempt, with every transition in payment_events. */
export class Ledger implements LedgerStore {
  private insert
  private update
  private event
  private byId
  private byStateQ
  private settleQ
  private settledQ
  private costQ

  constructor(
    private db: Database,
    private now = () => Date.now(),
  ) {
    this.insert = db.prepare(
      `INSERT OR IGNORE INTO payments (payer, nonce, slug, tier, amount, network, state, request_id, valid_before, x402_version, payload, requirements, created_at, updated_at, protocol)
       VALUES ($payer, $nonce, $slug, $tier, $amount, $network, 'reserved', $requestId, $validBefore, $x402Version, $payload, $requirements, $now, $now, $protocol)`,
    )
    // `settled` is terminal: a late transition (e.g. the tx-hash callback after a reconciliation) never reopens it.
    this.update = db.prepare(
      `UPDATE payments SET state = $state, tx_hash = COALESCE($tx, tx_hash), reason = COALESCE($reason, reason), updated_at = $now WHERE id = $id AND state <> 'settled'`,
    )
    this.event = db.prepare(`INSERT INTO payment_events (payment_id, state, detail, at) VALUES (?, ?, ?, ?)`)
    this.byId = db.prepare(`SELECT * FROM payments WHERE id = ?`)
    this.settleQ = db.prepare(
      `UPDATE payments SET state = 'settled', tx_hash = COALESCE($tx, tx_hash), reason = COALESCE($reason, reason), updated_at = $now, settled_at = $now,
         gas_used = $gasUsed, gas_price = $gasPrice
       WHERE id = $id AND state <> 'settled'`,
    )
    // Integer sums (SQLite raises on overflow rather than rounding), read back as text for exact bigints.
    this.settledQ = db.prepare(
      `SELECT strftime('%Y-%m-%d', settled_at / 1000, 'unixepoch') AS day, network, slug, COUNT(*) AS paid_calls,
              CAST(SUM(CAST(amount AS INTEGER)) AS TEXT) AS revenue_atomic, CAST(COALESCE(SUM(gas_used * gas_price), 0) AS TEXT) AS gas_wei,
              protocol
       FROM payments INDEXED BY payments_settled WHERE state = 'settled' AND settled_at >= ?
       GROUP BY day, network, slug, protocol ORDER BY day, network, slug, protocol`,
    )
    this.costQ = db.prepare(
      `SELECT CAST(SUM(c) AS TEXT) AS total, COUNT(*) AS n FROM
         (SELECT gas_used * gas_price AS c FROM payments INDEXED BY payments_settled WHERE state = 'settled' AND settled_at >= ? AND gas_used IS NOT NULL ORDER BY settled_at DESC LIMIT ?)`,
    )
    this.byStateQ = db.prepare(`SELECT * FROM payments WHERE state IN (SELECT value FROM json_each(?)) ORDER BY id`)
  }

  /**
   * Atomically reserves one authorization (network, payer, nonce). Returns the row id, or null when the same
   * authorization is already reserved, in flight, settled or failed.
   */
  reserve(r: Reservation): number | null {
    this.flushHashes()
    return this.db.transaction(() => {
      const res = this.insert.run({
        payer: ledgerKey(r.payer),
        nonce: ledgerKey(r.nonce),
        slug: r.slug,
        tier: r.tier,
        amount: r.amount,
        network: r.network,
        requestId: r.requestId,
        validBefore: r.validBefore,
        x402Version: r.x402Version,
        payload: JSON.stringify(r.payload),
        requirements: JSON.stringify(r.requirements),
        now: this.now(),
        protocol: r.protocol ?? 'x402',
      })
      if (res.changes !== 1) return null
      const id = Number(res.lastInsertRowid)
      this.event.run(id, 'reserved', null, this.now())
      return id
    })()
  }

  /**
   * Moves a payment to `state`, recording the transition. A transition that must survive a power cut
   * (`mustSurvivePowerCut`: entering `settling`, before the transfer is broadcast) is group-committed: those asked
   * for in the same turn of the event loop, or under load within SETTLING_SPACING_MS of the previous group, share
   * one fsync'd transaction (each in its own savepoint), and each promise resolves only once its group is durable,
   * so nothing is broadcast before its row is on disk. One fsync per paid call made a burst of 128 paid calls after a
   * block wait on 128 fsyncs in a row on the event loop (19 % of the server's samples under load, docs/benchmarks.md
   * §3b): calls then reached the node after the next block was sealed. A transaction's hash (`settling` with `tx`,
   * told as each transaction is sent, nobody waits for it) is written with the others of the same turn in one NORMAL
   * transaction: a group's sends go out one after the other, and a commit each stood between them. Every other write
   * and read of this ledger writes the queued hashes first, so the order of a row's writes never changes. The others
   * commit at once (NORMAL).
   */
  transition(id: number, state: PaymentState, detail: { tx?: string; reason?: string } = {}): void | Promise<void> {
    const write = () => {
      if (
        this.update.run({ id, state, tx: detail.tx ?? null, reason: detail.reason ?? null, now: this.now() })
          .changes !== 1
      )
        return
      this.event.run(id, state, detail.reason ?? detail.tx ?? null, this.now())
    }
    if (state === 'settling' && detail.tx !== undefined)
      return new Promise<void>((resolve, reject) => {
        this.hashQueue.push({ write, resolve, reject })
        if (this.hashQueue.length === 1) setImmediate(() => this.flushHashes())
      })
    this.flushHashes()
    if (!mustSurvivePowerCut(state, detail)) return this.db.transaction(write)()
    return new Promise<void>((resolve, reject) => {
      this.durableQueue.push({ write, resolve, reject })
      if (this.durableQueue.length > 1) return
      const wait = this.lastDurable + SETTLING_SPACING_MS - performance.now()
      if (wait > 0) setTimeout(() => this.flushDurable(), wait)
      else setImmediate(() => this.flushDurable())
    })
  }

  private durableQueue: Array<{ write: () => void; resolve: () => void; reject: (e: unknown) => void }> = []
  private lastDurable = Number.NEGATIVE_INFINITY
  private hashQueue: Array<{ write: () => void; resolve: () => void; reject: (e: unknown) => void }> = []

  /** Writes the queued transaction hashes in one transaction (each in its savepoint: one failing fails alone). */
  private flushHashes(): void {
    if (this.hashQueue.length === 0) return
    const group = this.hashQueue
    this.hashQueue = []
    const errors = this.inGroup(group, (run) => this.db.transaction(run)())
    group.forEach((g, i) => (errors[i] === undefined ? g.resolve() : g.reject(errors[i])))
  }

  /** Runs each write of `group` in its savepoint inside one transaction opened by `commit`; each write's error, or all the commit's. */
  private inGroup(group: Array<{ write: () => void }>, commit: (run: () => void) => void): unknown[] {
    const errors: unknown[] = []
    try {
      commit(() => {
        for (const g of group) {
          try {
            this.db.transaction(g.write)()
            errors.push(undefined)
          } catch (e) {
            errors.push(e ?? new Error('ledger write failed'))
          }
        }
      })
    } catch (e) {
      return group.map(() => e)
    }
    return errors
  }

  /** One fsync'd transaction for the queued durable transitions; each fails alone (its savepoint) or all with the commit. */
  private flushDurable(): void {
    this.flushHashes()
    const group = this.durableQueue
    this.durableQueue = []
    this.lastDurable = performance.now()
    const errors = this.inGroup(group, (run) => durably(this.db, run))
    group.forEach((g, i) => (errors[i] === undefined ? g.resolve() : g.reject(errors[i])))
  }

  /**
   * Marks a payment settled exactly once, with its settlement time and gas cost, in one transaction: true when this
   * call made the change, false when it was already settled (by a concurrent reconciliation, say). Revenue is read
   * from these rows, so a committed settlement is counted even if the process dies the next instant.
   */
  settleOnce(id: number, detail: { tx?: string; reason?: string } & SettlementGas = {}): boolean {
    this.flushHashes()
    const gas = gasFigures(detail)
    return this.db.transaction(() => {
      const r = this.settleQ.run({
        id,
        tx: detail.tx ?? null,
        reason: detail.reason ?? null,
        now: this.now(),
        gasUsed: gas?.used ?? null,
        gasPrice: gas?.price ?? null,
      })
      if (r.changes !== 1) return false
      this.event.run(id, 'settled', detail.reason ?? detail.tx ?? null, this.now())
      return true
    })()
  }

  private failedQ?: Statement

  /** See LedgerStore.failedRuns (through the partial index payments_released). */
  failedRuns(network: string, payer: string, nonce: string): number {
    this.flushHashes()
    this.failedQ ??= this.db.prepare(
      `SELECT COUNT(*) AS n FROM payments INDEXED BY payments_released
       WHERE network = $network AND payer = $payer AND nonce = $nonce AND state = 'released'
         AND substr(reason, 1, $len) = $prefix`,
    )
    const r = this.failedQ.get({
      network,
      payer: ledgerKey(payer),
      nonce: ledgerKey(nonce),
      len: FAILED_RUN_REASON.length,
      prefix: FAILED_RUN_REASON,
    }) as { n: number }
    return r.n
  }

  get(id: number): PaymentRow | null {
    this.flushHashes()
    return this.byId.get(id) as PaymentRow | null
  }

  byState(states: PaymentState[]): PaymentRow[] {
    this.flushHashes()
    return this.byStateQ.all(JSON.stringify(states)) as PaymentRow[]
  }

  /** Sum of settled amounts (atomic units): on `network` only, or on every network. */
  settledTotal(network?: string): bigint {
    const rows = this.db
      .query(`SELECT amount FROM payments WHERE state = 'settled' AND ($network IS NULL OR network = $network)`)
      .all({ network: network ?? null }) as { amount: string }[]
    return rows.reduce((s, r) => s + BigInt(r.amount), 0n)
  }

  /** Settled payments per UTC day (of settled_at), network and service since `sinceMs`. */
  settledByDay(sinceMs: number): SettledRow[] {
    return this.settledQ.all(sinceMs) as SettledRow[]
  }

  /** Average gas cost (wei) of the last `limit` settlements with known gas since `sinceMs`; null when there are none. */
  averageSettlementCost(sinceMs: number, limit = 500): bigint | null {
    const r = this.costQ.get(sinceMs, limit) as { total: string | null; n: number }
    return r.n && r.total !== null ? BigInt(r.total) / BigInt(r.n) : null
  }

  events(id: number): Array<{ state: string; detail: string | null }> {
    this.flushHashes()
    return this.db
      .query(`SELECT state, detail FROM payment_events WHERE payment_id = ? ORDER BY rowid`)
      .all(id) as never
  }

  // ---- The per-payer in-flight limit (PayerLedger in ../store; the same rule as runtime/db/postgres/ledger.ts) ----

  /** One process, one clock: a settlement recorded before a balance read began shows in that read. */
  readonly clockSkewMs = 0

  private payerQ?: { inFlight: Statement; settled: Statement; spent: Statement; verify: Statement }

  private payerStatements() {
    // In flight: the payer's rows of payments_inflight (a partial index of verified/settling/pending rows), not its
    // whole history. Settled: the recent end of payments_settled.
    return (this.payerQ ??= {
      inFlight: this.db.prepare(
        `SELECT CAST(COALESCE(SUM(CAST(amount AS INTEGER)), 0) AS TEXT) AS total,
                CAST(COALESCE(SUM(CASE WHEN state <> 'verified' THEN CAST(amount AS INTEGER) END), 0) AS TEXT) AS sent
         FROM payments WHERE state IN ('verified', 'settling', 'pending') AND payer = $payer AND id <> $id
           AND (state <> 'pending' OR valid_before + 5 > $nowS)`,
      ),
      settled: this.db.prepare(
        `SELECT EXISTS (SELECT 1 FROM payments INDEXED BY payments_settled
                        WHERE state = 'settled' AND settled_at >= $since AND payer = $payer) AS any`,
      ),
      spent: this.db.prepare(
        `SELECT CAST(COALESCE(SUM(CAST(amount AS INTEGER)), 0) AS TEXT) AS total FROM payments INDEXED BY payments_settled
         WHERE state = 'settled' AND settled_at >= $since AND payer = $payer`,
      ),
      verify: this.db.prepare(
        `UPDATE payments SET state = 'verified', updated_at = $now WHERE id = $id AND state = 'reserved'`,
      ),
    })
  }

  /** See PayerLedger.verifyWithin: one BEGIN IMMEDIATE transaction is the payer's lock. */
  verifyWithin(
    id: number,
    payer: string,
    amount: bigint,
    balance: { value: bigint; readAtMs: number } | null,
    sinceMs: number,
  ): PayerCheck {
    this.flushHashes()
    const q = this.payerStatements()
    const key = ledgerKey(payer)
    return this.db
      .transaction(() => {
        const now = this.now()
        const row = q.inFlight.get({ payer: key, id, nowS: Math.floor(now / 1000) }) as { total: string; sent: string }
        const inFlight = BigInt(row.total)
        const sent = BigInt(row.sent)
        let spent = 0n
        if (balance === null) {
          const settled = (q.settled.get({ payer: key, since: sinceMs }) as { any: number }).any === 1
          if (inFlight > 0n || settled) return { outcome: 'recheck' as const, inFlight, sent, spent }
        } else {
          const since = balance.readAtMs - this.clockSkewMs
          spent = BigInt((q.spent.get({ payer: key, since }) as { total: string }).total)
          if (balance.value - spent - inFlight < amount) return { outcome: 'short' as const, inFlight, sent, spent }
        }
        if (q.verify.run({ id, now }).changes !== 1) return { outcome: 'short' as const, inFlight, sent, spent }
        this.event.run(id, 'verified', null, now)
        return { outcome: 'ok' as const, inFlight, sent, spent }
      })
      .immediate()
  }
}
