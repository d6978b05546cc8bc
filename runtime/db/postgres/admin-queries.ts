import type { SQL } from 'bun'
import { failuresFrom, moneyFromCells, toPayment, utcDay, windowStartMs } from '../shared'
import type { AdminPayment, AdminReads, Money, MoneyCell } from '../store'

type Row = Record<string, unknown>
const NUMS = ['id', 'created_at', 'updated_at', 'settled_at', 'at', 'n', 'clients', 'calls']

/** Postgres returns bigint and numeric as text: the columns the console reads as numbers become numbers again. */
const norm = (rows: Row[]): Row[] =>
  rows.map((r) => {
    const o = { ...r }
    for (const k of NUMS) if (typeof o[k] === 'string') o[k] = Number(o[k])
    return o
  })

/** The operator console's reads on Postgres (same answers as runtime/db/sqlite/admin-queries.ts). Never reads the signed payload. */
export class PgAdminQueries implements AdminReads {
  constructor(
    private sql: SQL,
    private now = () => new Date(),
  ) {}

  private async cols(where: string, params: unknown[], tail: string): Promise<Row[]> {
    return norm(
      await this.sql.unsafe(
        `SELECT id, state, slug, tier, amount, payer, network, tx_hash, reason, request_id, created_at, updated_at, settled_at, gas_used::text AS gas_used, gas_price::text AS gas_price
       FROM payments WHERE ${where} ${tail}`,
        params as never[],
      ),
    )
  }

  async payments(o: { limit: number; state?: string; slug?: string }): Promise<AdminPayment[]> {
    return (
      await this.cols(
        '($1::text IS NULL OR state = $1) AND ($2::text IS NULL OR slug = $2)',
        [o.state ?? null, o.slug ?? null, o.limit],
        'ORDER BY id DESC LIMIT $3',
      )
    ).map(toPayment)
  }

  async payment(id: number): Promise<AdminPayment | null> {
    const [r] = await this.cols('id = $1', [id], '')
    return r ? toPayment(r) : null
  }

  async unsettledPayments(): Promise<AdminPayment[]> {
    return (await this.cols(`state IN ('settling', 'pending', 'failed')`, [], 'ORDER BY id DESC LIMIT 200')).map(
      toPayment,
    )
  }

  async stateCounts(): Promise<Record<string, number>> {
    const rows = norm(await this.sql`SELECT state, COUNT(*) AS n FROM payments GROUP BY state`)
    return Object.fromEntries(rows.map((r) => [String(r.state), r.n as number]))
  }

  async events(id: number): Promise<Array<{ state: string; detail: string | null; at: string }>> {
    const rows = norm(
      await this.sql`SELECT state, detail, at FROM payment_events WHERE payment_id = ${id}::bigint ORDER BY seq`,
    )
    return rows.map((e) => ({
      state: String(e.state),
      detail: e.detail === null || e.detail === '' ? null : String(e.detail),
      at: new Date(e.at as number).toISOString(),
    }))
  }

  /** One aggregation by (UTC day, network, service) over the rows and expressions of /stats (PgLedger.settledByDay). */
  async money(days: number, network: string): Promise<Money> {
    const since = windowStartMs(days, this.now())
    const cells = await this.sql`
      SELECT to_char(to_timestamp(settled_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, network, slug,
             COUNT(*)::int AS settled, SUM(amount::numeric)::text AS revenue_atomic,
             COALESCE(SUM(gas_used * gas_price), 0)::text AS gas_wei,
             COALESCE(SUM(gas_used), 0)::text AS gas_used, COUNT(gas_used)::int AS with_gas
      FROM payments WHERE state = 'settled' AND settled_at >= ${since}::bigint GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`
    return moneyFromCells(cells as MoneyCell[], network)
  }

  async paidFailures(
    days: number,
  ): Promise<Array<{ slug: string; code: string; status: number | null; count: number }>> {
    const since = this.now().getTime() - days * 86_400_000
    const rows = norm(
      await this
        .sql`SELECT slug, reason, COUNT(*) AS n FROM payments WHERE state = 'released' AND updated_at >= ${since}::bigint GROUP BY slug, reason`,
    )
    return failuresFrom(rows as Array<{ slug: string; reason: string | null; n: number }>)
  }

  async demoQuota(days: number): Promise<Array<{ day: string; clients: number; calls: number }>> {
    const since = utcDay(new Date(this.now().getTime() - (days - 1) * 86_400_000))
    return norm(
      await this
        .sql`SELECT day, COUNT(*) AS clients, SUM(count) AS calls FROM demo_quota WHERE day >= ${since} GROUP BY day ORDER BY day`,
    ) as never
  }
}
