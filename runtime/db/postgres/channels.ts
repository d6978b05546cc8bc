import type { SQL } from 'bun'
import { STANDING_SQL, toChannel, toSponsorship, totalsOf } from '../channel-rows'
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
const s = (v: bigint) => v.toString()

/**
 * Payment channels on Postgres, shared by every instance: the lease is one upsert that only overwrites an expired
 * lease (so one request per channel across instances), the charge a compare-and-set on `charged` plus its
 * channel_charges row (primary key: channel, cumulative amount) in one transaction, durable at commit.
 */
export class PgChannels implements ChannelStore {
  constructor(private sql: SQL) {}

  async get(id: string): Promise<Channel | null> {
    const rows = await this.sql`SELECT * FROM channels WHERE channel_id = ${lower(id)}`
    return rows.length ? toChannel(rows[0]) : null
  }

  async lease(id: string, holder: string, untilMs: number, now: number): Promise<boolean> {
    const rows = await this.sql`
      INSERT INTO channel_leases (channel_id, holder, until_ms) VALUES (${lower(id)}, ${holder}, ${untilMs}::bigint)
      ON CONFLICT (channel_id) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms
      WHERE channel_leases.until_ms <= ${now}::bigint
      RETURNING 1`
    return rows.length === 1
  }

  async release(id: string, holder: string): Promise<void> {
    await this.sql`DELETE FROM channel_leases WHERE channel_id = ${lower(id)} AND holder = ${holder}`
  }

  async open(c: ChannelOpen, now: number): Promise<Channel> {
    const m = c.mirror
    const rows = await this.sql`
      INSERT INTO channels (channel_id, network, payer, config, charged, signed_max, signature, balance, total_claimed,
        withdraw_requested_at, refund_nonce, synced_at, claimed, first_unclaimed_at, last_request_at, created_at)
      VALUES (${lower(c.id)}, ${c.network}, ${c.config.payer.toLowerCase()}, ${JSON.stringify(c.config)},
        ${s(m.totalClaimed)}::numeric, ${s(m.totalClaimed)}::numeric, '', ${s(m.balance)}::numeric, ${s(m.totalClaimed)}::numeric,
        ${m.withdrawRequestedAt}::bigint, ${s(m.refundNonce)}::numeric, ${m.syncedAt}::bigint, ${s(m.totalClaimed)}::numeric,
        NULL, ${now}::bigint, ${now}::bigint)
      ON CONFLICT (channel_id) DO UPDATE SET balance = excluded.balance, total_claimed = excluded.total_claimed,
        withdraw_requested_at = excluded.withdraw_requested_at, refund_nonce = excluded.refund_nonce, synced_at = excluded.synced_at
      RETURNING *`
    return toChannel(rows[0])
  }

  async commitCharge(c: ChargeCommit): Promise<boolean> {
    if (c.to <= c.from || c.to > c.signedMax) throw new Error('a charge moves charged up, within the signed voucher')
    const id = lower(c.channelId)
    return this.sql.begin(async (tx) => {
      const moved = await tx`
        UPDATE channels SET charged = ${s(c.to)}::numeric, signed_max = ${s(c.signedMax)}::numeric, signature = ${c.signature},
          last_request_at = ${c.at}::bigint, first_unclaimed_at = COALESCE(first_unclaimed_at, ${c.at}::bigint)
        WHERE channel_id = ${id} AND charged = ${s(c.from)}::numeric
        RETURNING 1`
      if (moved.length === 1)
        await tx`INSERT INTO channel_charges (channel_id, cumulative, amount, slug, at)
                 VALUES (${id}, ${s(c.to)}::numeric, ${s(c.to - c.from)}::numeric, ${c.slug}, ${c.at}::bigint)`
      await tx`DELETE FROM channel_leases WHERE channel_id = ${id} AND holder = ${c.holder}`
      return moved.length === 1
    })
  }

  async mirror(id: string, m: ChannelMirror): Promise<void> {
    await this.sql`
      UPDATE channels SET balance = ${s(m.balance)}::numeric, total_claimed = ${s(m.totalClaimed)}::numeric,
        withdraw_requested_at = ${m.withdrawRequestedAt}::bigint, refund_nonce = ${s(m.refundNonce)}::numeric,
        synced_at = ${m.syncedAt}::bigint
      WHERE channel_id = ${lower(id)}`
  }

  async dueForClaim(
    network: string,
    q: { minUnclaimed: bigint; chargedBefore: number; all?: boolean },
    limit: number,
  ): Promise<Channel[]> {
    const rows = await this.sql`
      SELECT * FROM channels c WHERE network = ${network} AND charged <> claimed
        AND (${q.all === true}::boolean OR COALESCE(first_unclaimed_at, 0) <= ${q.chargedBefore}::bigint
             OR withdraw_requested_at > 0
             OR (SELECT SUM(o.charged - o.claimed) FROM channels o WHERE o.payer = c.payer AND o.network = c.network)
                >= ${s(q.minUnclaimed)}::numeric)
      ORDER BY first_unclaimed_at NULLS FIRST LIMIT ${limit}::int`
    return rows.map(toChannel)
  }

  async watched(network: string, limit: number): Promise<Channel[]> {
    const rows = await this.sql`
      SELECT * FROM channels WHERE network = ${network} AND balance > claimed ORDER BY last_request_at DESC LIMIT ${limit}::int`
    return rows.map(toChannel)
  }

  async recordClaim(
    tx: Omit<ChannelTx, 'kind' | 'amount' | 'channels'>,
    rows: Array<{ id: string; to: bigint }>,
  ): Promise<bigint> {
    return this.sql.begin(async (t) => {
      let amount = 0n
      for (const r of rows) {
        const id = lower(r.id)
        const to = s(r.to)
        const before = await t`SELECT claimed FROM channels WHERE channel_id = ${id} FOR UPDATE`
        const moved = await t`
          UPDATE channels SET claimed = ${to}::numeric, total_claimed = GREATEST(total_claimed, ${to}::numeric),
            first_unclaimed_at = CASE WHEN charged > ${to}::numeric THEN
              (SELECT MIN(at) FROM channel_charges WHERE channel_id = ${id} AND cumulative > ${to}::numeric) END
          WHERE channel_id = ${id} AND claimed < ${to}::numeric
          RETURNING 1`
        if (moved.length && before.length) amount += r.to - BigInt(String(before[0].claimed))
      }
      await this.insertTx(t, { ...tx, kind: 'claim', amount, channels: rows.length })
      return amount
    })
  }

  async recordTx(tx: ChannelTx): Promise<void> {
    await this.insertTx(this.sql, tx)
  }

  private async insertTx(sql: SQL, tx: ChannelTx): Promise<void> {
    await sql`
      INSERT INTO channel_txs (network, kind, tx, amount, channels, gas_used, gas_price, at, payer, channel_id)
      VALUES (${tx.network}, ${tx.kind}, ${tx.tx}, ${s(tx.amount)}::numeric, ${tx.channels}::int,
        ${tx.gasUsed === undefined ? null : s(tx.gasUsed)}::numeric, ${tx.gasPrice === undefined ? null : s(tx.gasPrice)}::numeric,
        ${tx.at}::bigint, ${tx.payer?.toLowerCase() ?? null}, ${tx.channelId ? lower(tx.channelId) : null})`
  }

  async chargedByDay(sinceMs: number): Promise<SettledRow[]> {
    const rows = await this.sql`
      SELECT to_char(to_timestamp(c.at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, ch.network, c.slug,
        COUNT(*)::int AS paid_calls, SUM(c.amount)::text AS revenue_atomic, '0' AS gas_wei
      FROM channel_charges c JOIN channels ch ON ch.channel_id = c.channel_id WHERE c.at >= ${sinceMs}::bigint
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`
    return rows.map((r: SettledRow) => ({ ...r, paid_calls: Number(r.paid_calls) }))
  }

  async txsByDay(sinceMs: number): Promise<ChannelTxDay[]> {
    const rows = await this.sql`
      SELECT to_char(to_timestamp(at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, network, kind,
        COUNT(*)::int AS txs, SUM(amount)::text AS amount, COALESCE(SUM(gas_used * gas_price), 0)::text AS gas_wei
      FROM channel_txs WHERE at >= ${sinceMs}::bigint GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`
    return rows.map((r: ChannelTxDay) => ({ ...r, txs: Number(r.txs) }))
  }

  async standing(network: string, payer: string, since: number): Promise<PayerStanding> {
    const q = STANDING_SQL.replaceAll('$network', '$1').replaceAll('$payer', '$2').replaceAll('$since', '$3::bigint')
    const rows = await this.sql.unsafe(q, [network, payer.toLowerCase(), since])
    return { drained: rows.length === 1 && Number(rows[0].cycle) === 0 && Number(rows[0].since) === 0 }
  }

  async boughtSinceRefund(id: string): Promise<bigint> {
    const [r] = await this.sql`
      SELECT COALESCE(SUM(amount), 0)::text AS bought FROM channel_charges
      WHERE channel_id = ${lower(id)} AND at > COALESCE(
        (SELECT MAX(at) FROM channel_txs WHERE kind = 'refund' AND channel_id = ${lower(id)}), -1)`
    return BigInt(r.bought)
  }

  async sponsored(network: string | undefined, since: number, limit: number): Promise<PayerSponsorship[]> {
    const n = network ?? null
    const rows = await this.sql`
      SELECT t.payer, t.network, COUNT(*) FILTER (WHERE t.kind = 'deposit') AS deposits,
        COUNT(*) FILTER (WHERE t.kind = 'refund') AS refunds, COALESCE(SUM(t.gas_used * t.gas_price), 0)::text AS gas,
        (SELECT COALESCE(SUM(c.amount), 0)::text FROM channel_charges c JOIN channels ch ON ch.channel_id = c.channel_id
           WHERE ch.payer = t.payer AND ch.network = t.network AND c.at >= ${since}::bigint) AS earned
      FROM channel_txs t
      WHERE t.payer IS NOT NULL AND (${n}::text IS NULL OR t.network = ${n}::text) AND t.at >= ${since}::bigint
      GROUP BY t.payer, t.network ORDER BY COALESCE(SUM(t.gas_used * t.gas_price), 0) DESC, t.payer LIMIT ${limit}::int`
    return rows.map(toSponsorship)
  }

  async unswept(network: string): Promise<{ amount: bigint; lastSweepAt: number }> {
    const [r] = await this.sql`
      SELECT COALESCE(SUM(CASE kind WHEN 'claim' THEN amount ELSE -amount END), 0)::text AS amount,
        COALESCE(MAX(CASE kind WHEN 'sweep' THEN at END), 0) AS last
      FROM channel_txs WHERE network = ${network} AND kind IN ('claim', 'sweep')`
    return { amount: BigInt(r.amount), lastSweepAt: Number(r.last) }
  }

  async totals(network?: string, since = 0): Promise<ChannelTotals> {
    const n = network ?? null
    const [charges] = await this.sql`
      SELECT COUNT(*) AS n, COALESCE(SUM(c.amount), 0)::text AS earned
      FROM channel_charges c JOIN channels ch ON ch.channel_id = c.channel_id
      WHERE (${n}::text IS NULL OR ch.network = ${n}::text) AND c.at >= ${since}::bigint`
    const [count] = await this.sql`
      SELECT COUNT(*) AS n FROM channels
      WHERE (${n}::text IS NULL OR network = ${n}::text) AND last_request_at >= ${since}::bigint`
    const kinds = await this.sql`
      SELECT kind, COUNT(*) AS n, SUM(amount)::text AS amount, COALESCE(SUM(gas_used * gas_price), 0)::text AS gas
      FROM channel_txs WHERE (${n}::text IS NULL OR network = ${n}::text) AND at >= ${since}::bigint GROUP BY kind`
    return totalsOf(charges, count.n, kinds)
  }

  async list(limit: number): Promise<Channel[]> {
    const rows = await this.sql`SELECT * FROM channels ORDER BY last_request_at DESC LIMIT ${limit}::int`
    return rows.map(toChannel)
  }
}
