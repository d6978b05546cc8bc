import type { SQL } from 'bun'
import { FAILED_RUN_REASON, ledgerKey, SKEW_MS } from '../shared'
import type {
  CooldownStore,
  LedgerStore,
  PayerCheck,
  PaymentRow,
  PaymentState,
  Reservation,
  SettledRow,
  SettlementGas,
} from '../store'
import { PgCooldowns } from './cooldowns'

const NUM_FIELDS = [
  'id',
  'valid_before',
  'x402_version',
  'created_at',
  'updated_at',
  'settled_at',
  'gas_used',
  'gas_price',
] as const

/** Postgres returns bigint/numeric as text: back to numbers (ids, ms times and gas all fit doubles exactly here). */
function toRow(r: Record<string, unknown>): PaymentRow {
  const out = { ...r } as Record<string, unknown>
  for (const f of NUM_FIELDS) if (out[f] !== null && out[f] !== undefined) out[f] = Number(out[f])
  return out as unknown as PaymentRow
}

const digits = (s: string | undefined) => (s && /^\d{1,40}$/.test(s) ? s : null)

/**
 * The payment ledger on Postgres: same states and guarantees as runtime/db/sqlite/ledger.ts, shared by every instance.
 * Reservation is one INSERT against the partial unique index (network, payer, nonce) WHERE state <> 'released'; settle-once
 * is one conditional UPDATE; each statement writes its payment_events row in the same statement (CTE).
 */
export class PgLedger implements LedgerStore {
  /** N instances, N clocks. */
  readonly clockSkewMs = SKEW_MS

  constructor(
    private sql: SQL,
    readonly instanceId: string,
    private now = () => Date.now(),
  ) {
    this.cooldowns = new PgCooldowns(sql, now)
  }

  /** Payer cool-downs shared by every instance. */
  readonly cooldowns: CooldownStore

  async reserve(r: Reservation): Promise<number | null> {
    const now = this.now()
    const rows = await this.sql`
      WITH ins AS (
        INSERT INTO payments (payer, nonce, slug, tier, amount, network, state, request_id, valid_before, x402_version, payload, requirements, created_at, updated_at, instance, protocol)
        VALUES (${ledgerKey(r.payer)}, ${ledgerKey(r.nonce)}, ${r.slug}, ${r.tier}, ${r.amount}, ${r.network}, 'reserved', ${r.requestId},
                ${r.validBefore}::bigint, ${r.x402Version}::int, ${JSON.stringify(r.payload)}, ${JSON.stringify(r.requirements)}, ${now}::bigint, ${now}::bigint, ${this.instanceId}, ${r.protocol ?? 'x402'})
        ON CONFLICT DO NOTHING RETURNING id),
      ev AS (INSERT INTO payment_events (payment_id, state, at) SELECT id, 'reserved', ${now}::bigint FROM ins)
      SELECT id FROM ins`
    return rows.length ? Number(rows[0].id) : null
  }

  async transition(id: number, state: PaymentState, detail: { tx?: string; reason?: string } = {}): Promise<void> {
    const now = this.now()
    await this.sql`
      WITH u AS (
        UPDATE payments SET state = ${state}, tx_hash = COALESCE(${detail.tx ?? null}::text, tx_hash), reason = COALESCE(${detail.reason ?? null}::text, reason), updated_at = ${now}::bigint
        WHERE id = ${id}::bigint AND state <> 'settled' RETURNING id)
      INSERT INTO payment_events (payment_id, state, detail, at) SELECT id, ${state}, ${detail.reason ?? detail.tx ?? null}::text, ${now}::bigint FROM u`
  }

  async settleOnce(id: number, detail: { tx?: string; reason?: string } & SettlementGas = {}): Promise<boolean> {
    const now = this.now()
    const used = digits(detail.gasUsed),
      price = digits(detail.effectiveGasPrice)
    const known = used !== null && price !== null
    const rows = await this.sql`
      WITH u AS (
        UPDATE payments SET state = 'settled', tx_hash = COALESCE(${detail.tx ?? null}::text, tx_hash), reason = COALESCE(${detail.reason ?? null}::text, reason),
          updated_at = ${now}::bigint, settled_at = ${now}::bigint, gas_used = ${known ? used : null}::numeric, gas_price = ${known ? price : null}::numeric
        WHERE id = ${id}::bigint AND state <> 'settled' RETURNING id),
      ev AS (INSERT INTO payment_events (payment_id, state, detail, at) SELECT id, 'settled', ${detail.reason ?? detail.tx ?? null}::text, ${now}::bigint FROM u)
      SELECT id FROM u`
    return rows.length === 1
  }

  async failedRuns(network: string, payer: string, nonce: string): Promise<number> {
    const [r] = await this.sql`
      SELECT COUNT(*)::int AS n FROM payments
      WHERE network = ${network} AND payer = ${ledgerKey(payer)} AND nonce = ${ledgerKey(nonce)}
        AND state = 'released'
        AND left(reason, ${FAILED_RUN_REASON.length}::int) = ${FAILED_RUN_REASON}`
    return Number(r.n)
  }

  async get(id: number): Promise<PaymentRow | null> {
    const rows = await this.sql`SELECT * FROM payments WHERE id = ${id}::bigint`
    return rows.length ? toRow(rows[0]) : null
  }

  async byState(states: PaymentState[]): Promise<PaymentRow[]> {
    const rows = await this
      .sql`SELECT * FROM payments WHERE state = ANY(string_to_array(${states.join(',')}, ',')) ORDER BY id`
    return rows.map(toRow)
  }

  async settledTotal(network?: string): Promise<bigint> {
    const [r] = await this.sql`SELECT COALESCE(SUM(amount::numeric), 0)::text AS total FROM payments
      WHERE state = 'settled' AND (${network ?? null}::text IS NULL OR network = ${network ?? null}::text)`
    return BigInt(r.total)
  }

  async settledByDay(sinceMs: number): Promise<SettledRow[]> {
    const rows = await this.sql`
      SELECT to_char(to_timestamp(settled_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, network, slug, COUNT(*)::int AS paid_calls,
             SUM(amount::numeric)::text AS revenue_atomic, COALESCE(SUM(gas_used * gas_price), 0)::text AS gas_wei,
             protocol
      FROM payments WHERE state = 'settled' AND settled_at >= ${sinceMs}::bigint GROUP BY 1, 2, 3, 7 ORDER BY 1, 2, 3, 7`
    return rows.map((r: SettledRow) => ({ ...r, paid_calls: Number(r.paid_calls) }))
  }

  async averageSettlementCost(sinceMs: number, limit = 500): Promise<bigint | null> {
    const [r] = await this.sql`
      SELECT SUM(c)::text AS total, COUNT(*)::int AS n FROM
        (SELECT gas_used * gas_price AS c FROM payments WHERE state = 'settled' AND settled_at >= ${sinceMs}::bigint AND gas_used IS NOT NULL
         ORDER BY settled_at DESC LIMIT ${limit}::int) recent`
    return Number(r.n) && r.total !== null ? BigInt(r.total.split('.')[0]) / BigInt(r.n) : null
  }

  async events(id: number): Promise<Array<{ state: string; detail: string | null }>> {
    return [...(await this.sql`SELECT state, detail FROM payment_events WHERE payment_id = ${id}::bigint ORDER BY seq`)]
  }

  async verifyWithin(
    id: number,
    payer: string,
    amount: bigint,
    balance: { value: bigint; readAtMs: number } | null,
    sinceMs: number,
  ): Promise<PayerCheck> {
    const key = ledgerKey(payer)
    return this.sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(hashtext(${'payer:' + key}))`
      const nowS = Math.floor(this.now() / 1000)
      const readAt = balance ? balance.readAtMs - this.clockSkewMs : 0
      const [r] = await tx`
        SELECT COALESCE(SUM(amount::numeric), 0)::text AS inflight,
               COALESCE(SUM(amount::numeric) FILTER (WHERE state <> 'verified'), 0)::text AS sent,
               EXISTS (SELECT 1 FROM payments WHERE payer = ${key} AND state = 'settled' AND settled_at >= ${sinceMs}::bigint) AS settled,
               (SELECT COALESCE(SUM(amount::numeric), 0)::text FROM payments WHERE payer = ${key} AND state = 'settled' AND settled_at >= ${readAt}::bigint) AS spent
        FROM payments WHERE payer = ${key} AND id <> ${id}::bigint
          AND (state IN ('verified', 'settling') OR (state = 'pending' AND valid_before + 5 > ${nowS}::bigint))`
      const inFlight = BigInt(r.inflight.split('.')[0])
      const sent = BigInt(r.sent.split('.')[0])
      const spent = balance ? BigInt(r.spent.split('.')[0]) : 0n
      if (balance === null && (inFlight > 0n || r.settled))
        return { outcome: 'recheck' as const, inFlight, sent, spent }
      if (balance !== null && balance.value - spent - inFlight < amount)
        return { outcome: 'short' as const, inFlight, sent, spent }
      const now = this.now()
      const moved = await tx`
        WITH u AS (UPDATE payments SET state = 'verified', updated_at = ${now}::bigint WHERE id = ${id}::bigint AND state = 'reserved' RETURNING id)
        INSERT INTO payment_events (payment_id, state, at) SELECT id, 'verified', ${now}::bigint FROM u RETURNING payment_id`
      return { outcome: moved.length ? ('ok' as const) : ('short' as const), inFlight, sent, spent }
    })
  }

  /** Runs `fn` while holding the session advisory lock `name` on one pooled connection; undefined when another holds it. */
  async exclusively<T>(name: string, fn: () => Promise<T>): Promise<T | undefined> {
    const conn = await this.sql.reserve()
    try {
      const [r] = await conn`SELECT pg_try_advisory_lock(hashtext(${name})) AS ok`
      if (!r.ok) return undefined
      try {
        return await fn()
      } finally {
        await conn`SELECT pg_advisory_unlock(hashtext(${name}))`.catch(() => {})
      }
    } finally {
      conn.release()
    }
  }
}
