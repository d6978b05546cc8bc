import type { Database } from 'bun:sqlite'
import { durably } from './connect'
import { big, num, STANDING_SQL, toChannel, toSponsorship, totalsOf } from '../channel-rows'
import type {
  Channel,
  ChannelMirror,
  ChannelOpen,
  ChannelStore,
  ChannelTotals,
  ChannelTx,
  ChannelTxDay,
  ChargeCommit,
  PayerSponsorship,
  PayerStanding,
  SettledRow,
} from '../store'

const lower = (id: string) => id.toLowerCase()

/**
 * Two group commits of charges are at least this far apart (ms) while one channel is charged (one caller, its calls in
 * sequence: its next charge cannot come before this one is durable, so it is committed on the next turn)…
 */
const GROUP_SPACING_MS = 3
/**
 * …and this far apart while several channels are charged (within ACTIVE_MS): an fsync'd commit costs 0.3–0.5 ms of
 * CPU on a virtual disk (kernel and SQLite), as much as the rest of a voucher call, so at moderate rates (300 calls/s,
 * calls 3 ms apart) a group of one per call doubled the call's CPU. At most ~50 fsyncs a second: a charge waits at
 * most this long (plus the fsync) for its group, and the groups grow with the rate.
 */
const GROUP_WINDOW_MS = 20
/** Another channel charged within this many ms: several callers are paying. */
const ACTIVE_MS = 250
/** Channels kept in memory at most (past it the map starts again, each read once more). */
const MAX_KEPT = 50_000

/**
 * Payment channels in the embedded SQLite (one process, like the rest of the SQLite state): the lease is held in
 * memory (a crash frees every channel at once), the charge is a compare-and-set on `charged` committed with an
 * fsync (`durably`): a charged voucher survives a crash and a power cut before the answer leaves.
 */
export class Channels implements ChannelStore {
  private q

  constructor(private db: Database) {
    const p = (s: string) => db.prepare(s)
    this.q = {
      get: p(`SELECT * FROM channels WHERE channel_id = ?`),
      open: p(
        `INSERT INTO channels (channel_id, network, payer, config, charged, signed_max, signature, balance, total_claimed,
           withdraw_requested_at, refund_nonce, synced_at, claimed, first_unclaimed_at, last_request_at, created_at)
         VALUES ($id, $network, $payer, $config, $totalClaimed, $totalClaimed, '', $balance, $totalClaimed,
           $withdrawRequestedAt, $refundNonce, $syncedAt, $totalClaimed, NULL, $now, $now)
         ON CONFLICT (channel_id) DO UPDATE SET balance = excluded.balance, total_claimed = excluded.total_claimed,
           withdraw_requested_at = excluded.withdraw_requested_at, refund_nonce = excluded.refund_nonce,
           synced_at = excluded.synced_at`,
      ),
      mirror: p(
        `UPDATE channels SET balance = $balance, total_claimed = $totalClaimed, withdraw_requested_at = $withdrawRequestedAt,
           refund_nonce = $refundNonce, synced_at = $syncedAt WHERE channel_id = $id`,
      ),
      charge: p(
        `UPDATE channels SET charged = $to, signed_max = $signedMax, signature = $signature, last_request_at = $at,
           first_unclaimed_at = COALESCE(first_unclaimed_at, $at)
         WHERE channel_id = $id AND charged = $from`,
      ),
      chargeRow: p(
        `INSERT INTO channel_charges (channel_id, cumulative, amount, slug, at) VALUES ($id, $to, $amount, $slug, $at)`,
      ),
      due: p(
        `SELECT * FROM channels c WHERE network = $network AND charged <> claimed
           AND ($all OR COALESCE(first_unclaimed_at, 0) <= $before OR withdraw_requested_at > 0
                OR (SELECT SUM(CAST(o.charged AS INTEGER) - CAST(o.claimed AS INTEGER)) FROM channels o
                    WHERE o.payer = c.payer AND o.network = c.network) >= $min)
         ORDER BY first_unclaimed_at LIMIT $limit`,
      ),
      watched: p(
        `SELECT * FROM channels WHERE network = ? AND CAST(balance AS INTEGER) > CAST(claimed AS INTEGER)
         ORDER BY last_request_at DESC LIMIT ?`,
      ),
      claimed: p(
        `UPDATE channels SET claimed = $toText,
           total_claimed = CASE WHEN CAST(total_claimed AS INTEGER) < $to THEN $toText ELSE total_claimed END,
           first_unclaimed_at = CASE WHEN CAST(charged AS INTEGER) > $to THEN
             (SELECT MIN(at) FROM channel_charges WHERE channel_id = $id AND CAST(cumulative AS INTEGER) > $to) END
         WHERE channel_id = $id AND CAST(claimed AS INTEGER) < $to
         RETURNING CAST(claimed AS TEXT) AS claimed`,
      ),
      claimedBefore: p(`SELECT claimed FROM channels WHERE channel_id = ?`),
      tx: p(
        `INSERT INTO channel_txs (network, kind, tx, amount, channels, gas_used, gas_price, at, payer, channel_id)
         VALUES ($network, $kind, $tx, $amount, $channels, $gasUsed, $gasPrice, $at, $payer, $channelId)`,
      ),
      standing: p(STANDING_SQL),
      chargedByDay: p(
        `SELECT strftime('%Y-%m-%d', c.at / 1000, 'unixepoch') AS day, ch.network AS network, c.slug AS slug,
           COUNT(*) AS paid_calls, CAST(SUM(CAST(c.amount AS INTEGER)) AS TEXT) AS revenue_atomic, '0' AS gas_wei
         FROM channel_charges c JOIN channels ch ON ch.channel_id = c.channel_id WHERE c.at >= ?
         GROUP BY day, ch.network, c.slug ORDER BY day, ch.network, c.slug`,
      ),
      txsByDay: p(
        `SELECT strftime('%Y-%m-%d', at / 1000, 'unixepoch') AS day, network, kind, COUNT(*) AS txs,
           CAST(SUM(CAST(amount AS INTEGER)) AS TEXT) AS amount, CAST(COALESCE(SUM(gas_used * gas_price), 0) AS TEXT) AS gas_wei
         FROM channel_txs WHERE at >= ? GROUP BY day, network, kind ORDER BY day, network, kind`,
      ),
      boughtSinceRefund: p(
        `SELECT CAST(COALESCE(SUM(CAST(amount AS INTEGER)), 0) AS TEXT) AS bought FROM channel_charges
         WHERE channel_id = $id AND at > COALESCE((SELECT MAX(at) FROM channel_txs WHERE kind = 'refund' AND channel_id = $id), -1)`,
      ),
      sponsored: p(
        `SELECT t.payer, t.network, SUM(t.kind = 'deposit') AS deposits, SUM(t.kind = 'refund') AS refunds,
           CAST(COALESCE(SUM(t.gas_used * t.gas_price), 0) AS TEXT) AS gas,
           (SELECT CAST(COALESCE(SUM(CAST(c.amount AS INTEGER)), 0) AS TEXT) FROM channel_charges c
              JOIN channels ch ON ch.channel_id = c.channel_id
              WHERE ch.payer = t.payer AND ch.network = t.network AND c.at >= $since) AS earned
         FROM channel_txs t WHERE t.payer IS NOT NULL AND ($network IS NULL OR t.network = $network) AND t.at >= $since
         GROUP BY t.payer, t.network ORDER BY COALESCE(SUM(t.gas_used * t.gas_price), 0) DESC, t.payer LIMIT $limit`,
      ),
      unswept: p(
        `SELECT CAST(COALESCE(SUM(CASE kind WHEN 'claim' THEN CAST(amount AS INTEGER) ELSE -CAST(amount AS INTEGER) END), 0) AS TEXT) AS amount,
           COALESCE(MAX(CASE kind WHEN 'sweep' THEN at END), 0) AS last
         FROM channel_txs WHERE network = ? AND kind IN ('claim', 'sweep')`,
      ),
      charges: p(
        `SELECT COUNT(*) AS n, CAST(COALESCE(SUM(CAST(c.amount AS INTEGER)), 0) AS TEXT) AS earned
         FROM channel_charges c JOIN channels ch ON ch.channel_id = c.channel_id
         WHERE ($network IS NULL OR ch.network = $network) AND c.at >= $since`,
      ),
      count: p(
        `SELECT COUNT(*) AS n FROM channels WHERE ($network IS NULL OR network = $network) AND last_request_at >= $since`,
      ),
      kinds: p(
        `SELECT kind, COUNT(*) AS n, CAST(SUM(CAST(amount AS INTEGER)) AS TEXT) AS amount,
           CAST(COALESCE(SUM(gas_used * gas_price), 0) AS TEXT) AS gas
         FROM channel_txs WHERE ($network IS NULL OR network = $network) AND at >= $since GROUP BY kind`,
      ),
      list: p(`SELECT * FROM channels ORDER BY last_request_at DESC LIMIT ?`),
    }
  }

  /**
   * The kept channels as last read or written by this store, the one writer of the table (one process, like the
   * leases): a voucher call reads its channel once per call, which was a SQLite read and a row parsed (its config's
   * JSON) every time. Every write here refreshes or drops the entry: a committed charge replaces it (a new object:
   * one handed out is never changed), anything else (open, mirror, claim, a charge not made) drops it, to be read
   * again. The charge itself stays a compare-and-set in SQL, whatever the entry says. Bounded.
   */
  private kept = new Map<string, Channel>()

  get(id: string): Channel | null {
    const key = lower(id)
    const hit = this.kept.get(key)
    if (hit) return hit
    const r = this.q.get.get(key) as Record<string, unknown> | null
    if (!r) return null
    const c = toChannel(r)
    if (this.kept.size >= MAX_KEPT) this.kept.clear()
    this.kept.set(key, c)
    return c
  }

  /** The requests holding a channel (one at a time): its holder, until when (ms). */
  private leases = new Map<string, { holder: string; until: number }>()

  lease(id: string, holder: string, untilMs: number, now: number): boolean {
    const held = this.leases.get(lower(id))
    if (held && held.until > now) return false
    this.leases.set(lower(id), { holder, until: untilMs })
    return true
  }

  release(id: string, holder: string): void {
    if (this.leases.get(lower(id))?.holder === holder) this.leases.delete(lower(id))
  }

  open(c: ChannelOpen, now: number): Channel {
    this.kept.delete(lower(c.id))
    this.q.open.run({
      id: lower(c.id),
      network: c.network,
      payer: c.config.payer.toLowerCase(),
      config: JSON.stringify(c.config),
      ...mirrorParams(c.mirror),
      now,
    })
    return this.get(c.id) as Channel
  }

  /**
   * Group commit: the charges committed in the same turn of the event loop, or within GROUP_SPACING_MS of the previous
   * group (GROUP_WINDOW_MS while several channels are charged), share one fsync'd transaction (each in its own
   * savepoint, so one failing charge fails alone). A charge after a quiet spell is committed on the next turn. Each
   * promise resolves once its group is durable; its channel's lease is released then (charged or not).
   */
  commitCharge(c: ChargeCommit): Promise<boolean> {
    if (c.to <= c.from || c.to > c.signedMax)
      return Promise.reject(new Error('a charge moves charged up, within the signed voucher'))
    const now = performance.now()
    const id = lower(c.channelId)
    if (id !== this.lastChannel) {
      if (this.lastChannel !== '') this.severalAt = now
      this.lastChannel = id
    }
    return new Promise<boolean>((resolve, reject) => {
      this.pending.push({ c, resolve, reject })
      if (this.pending.length > 1) return
      const spacing = now - this.severalAt < ACTIVE_MS ? GROUP_WINDOW_MS : GROUP_SPACING_MS
      const wait = this.lastFlush + spacing - now
      if (wait > 0) setTimeout(() => this.flushCharges(), wait)
      else setImmediate(() => this.flushCharges())
    })
  }

  private lastFlush = Number.NEGATIVE_INFINITY
  /** The channel charged last, and when a charge last came for another channel than the one before it. */
  private lastChannel = ''
  private severalAt = Number.NEGATIVE_INFINITY

  private pending: Array<{ c: ChargeCommit; resolve: (moved: boolean) => void; reject: (e: unknown) => void }> = []

  private flushCharges(): void {
    const group = this.pending
    this.pending = []
    this.lastFlush = performance.now()
    const outcomes: Array<{ moved: boolean } | { error: unknown }> = []
    try {
      durably(this.db, () => {
        // A savepoint per charge, from statements compiled once (db.transaction builds its wrapper each call).
        const [save, release, rollback] = [
          this.db.query('SAVEPOINT charge'),
          this.db.query('RELEASE charge'),
          this.db.query('ROLLBACK TO charge'),
        ]
        for (const { c } of group) {
          save.run()
          try {
            outcomes.push({ moved: this.chargeOne(c) })
            release.run()
          } catch (error) {
            rollback.run()
            release.run()
            outcomes.push({ error })
          }
        }
      })
    } catch (error) {
      for (const g of group) {
        this.kept.delete(lower(g.c.channelId))
        g.reject(error)
      }
      return
    }
    group.forEach((g, i) => {
      const o = outcomes[i]
      const id = lower(g.c.channelId)
      const was = this.kept.get(id)
      if ('error' in o || !o.moved || !was || was.charged !== g.c.from) this.kept.delete(id)
      else this.kept.set(id, charged(was, g.c))
      if ('error' in o) return g.reject(o.error)
      this.release(g.c.channelId, g.c.holder)
      g.resolve(o.moved)
    })
  }

  private chargeOne(c: ChargeCommit): boolean {
    const id = lower(c.channelId)
    const moved =
      this.q.charge.run({
        id,
        from: String(c.from),
        to: String(c.to),
        signedMax: String(c.signedMax),
        signature: c.signature,
        at: c.at,
      }).changes === 1
    if (moved) this.q.chargeRow.run({ id, to: String(c.to), amount: String(c.to - c.from), slug: c.slug, at: c.at })
    return moved
  }

  mirror(id: string, m: ChannelMirror): void {
    this.kept.delete(lower(id))
    this.q.mirror.run({ id: lower(id), ...mirrorParams(m) })
  }

  dueForClaim(network: string, q: { minUnclaimed: bigint; chargedBefore: number; all?: boolean }, limit: number) {
    const rows = this.q.due.all({
      network,
      all: q.all ? 1 : 0,
      min: q.minUnclaimed,
      before: q.chargedBefore,
      limit,
    }) as Array<Record<string, unknown>>
    return rows.map(toChannel)
  }

  watched(network: string, limit: number): Channel[] {
    return (this.q.watched.all(network, limit) as Array<Record<string, unknown>>).map(toChannel)
  }

  recordClaim(tx: Omit<ChannelTx, 'kind' | 'amount' | 'channels'>, rows: Array<{ id: string; to: bigint }>): bigint {
    for (const r of rows) this.kept.delete(lower(r.id))
    return durably(this.db, () => {
      let amount = 0n
      for (const r of rows) {
        const id = lower(r.id)
        const before = big((this.q.claimedBefore.get(id) as { claimed: string } | null)?.claimed)
        if (this.q.claimed.get({ id, to: r.to, toText: String(r.to) })) amount += r.to - before
      }
      this.insertTx({ ...tx, kind: 'claim', amount, channels: rows.length })
      return amount
    })
  }

  recordTx(tx: ChannelTx): void {
    this.insertTx(tx)
  }

  private insertTx(tx: ChannelTx): void {
    this.q.tx.run({
      network: tx.network,
      kind: tx.kind,
      tx: tx.tx,
      amount: String(tx.amount),
      channels: tx.channels,
      gasUsed: tx.gasUsed ?? null,
      gasPrice: tx.gasPrice ?? null,
      at: tx.at,
      payer: tx.payer?.toLowerCase() ?? null,
      channelId: tx.channelId ? lower(tx.channelId) : null,
    })
  }

  chargedByDay(sinceMs: number): SettledRow[] {
    return this.q.chargedByDay.all(sinceMs) as SettledRow[]
  }

  txsByDay(sinceMs: number): ChannelTxDay[] {
    return this.q.txsByDay.all(sinceMs) as ChannelTxDay[]
  }

  standing(network: string, payer: string, since: number): PayerStanding {
    const r = this.q.standing.get({ network, payer: payer.toLowerCase(), since }) as {
      cycle: number
      since: number
    } | null
    return { drained: r !== null && num(r.cycle) === 0 && num(r.since) === 0 }
  }

  boughtSinceRefund(id: string): bigint {
    return big((this.q.boughtSinceRefund.get({ id: lower(id) }) as { bought: string }).bought)
  }

  sponsored(network: string | undefined, since: number, limit: number): PayerSponsorship[] {
    const rows = this.q.sponsored.all({ network: network ?? null, since, limit }) as Array<Record<string, unknown>>
    return rows.map(toSponsorship)
  }

  unswept(network: string): { amount: bigint; lastSweepAt: number } {
    const r = this.q.unswept.get(network) as { amount: string; last: number }
    return { amount: big(r.amount), lastSweepAt: num(r.last) }
  }

  totals(network?: string, since = 0): ChannelTotals {
    const q = { network: network ?? null, since }
    return totalsOf(
      this.q.charges.get(q) as { n: number; earned: string },
      (this.q.count.get(q) as { n: number }).n,
      this.q.kinds.all(q) as Array<{ kind: string; n: number; amount: string; gas: string }>,
    )
  }

  list(limit: number): Channel[] {
    return (this.q.list.all(limit) as Array<Record<string, unknown>>).map(toChannel)
  }
}

/** A kept channel after its charge `c` was committed: what the charge's UPDATE wrote, as a new object. */
const charged = (was: Channel, c: ChargeCommit): Channel => ({
  ...was,
  charged: c.to,
  signedMax: c.signedMax,
  signature: c.signature,
  lastRequestAt: c.at,
  firstUnclaimedAt: was.firstUnclaimedAt ?? c.at,
})

const mirrorParams = (m: ChannelMirror) => ({
  balance: String(m.balance),
  totalClaimed: String(m.totalClaimed),
  withdrawRequestedAt: m.withdrawRequestedAt,
  refundNonce: String(m.refundNonce),
  syncedAt: m.syncedAt,
})
