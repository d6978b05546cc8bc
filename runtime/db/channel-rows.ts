import type { Channel, ChannelTotals, ChannelTx, PayerSponsorship, StoredChannelConfig } from './store'

/*
 * Payment-channel row mapping shared by both engines (runtime/db/sqlite/channels.ts, runtime/db/postgres/channels.ts);
 * engine-neutral: it imports no engine.
 */

export const big = (v: unknown): bigint => (v === null || v === undefined || v === '' ? 0n : BigInt(String(v)))
export const num = (v: unknown): number => Number(v ?? 0)

/** A channels row (either engine: SQLite text and integers, Postgres numeric and bigint as text) as a Channel. */
export function toChannel(r: Record<string, unknown>): Channel {
  return {
    id: r.channel_id as Channel['id'],
    network: String(r.network),
    config: JSON.parse(String(r.config)) as StoredChannelConfig,
    payer: String(r.payer),
    charged: big(r.charged),
    signedMax: big(r.signed_max),
    signature: String(r.signature) as Channel['signature'],
    balance: big(r.balance),
    totalClaimed: big(r.total_claimed),
    withdrawRequestedAt: num(r.withdraw_requested_at),
    refundNonce: big(r.refund_nonce),
    syncedAt: num(r.synced_at),
    claimed: big(r.claimed),
    firstUnclaimedAt:
      r.first_unclaimed_at === null || r.first_unclaimed_at === undefined ? null : num(r.first_unclaimed_at),
    lastRequestAt: num(r.last_request_at),
  }
}

/** Totals from the per-kind rows of channel_txs and the charge sums (either engine). */
export function totalsOf(
  charges: { n: unknown; earned: unknown },
  channels: unknown,
  kinds: Array<{ kind: string; n: unknown; amount: unknown; gas: unknown }>,
): ChannelTotals {
  const t: ChannelTotals = {
    channels: num(channels),
    charges: num(charges.n),
    earned: big(charges.earned),
    claimed: 0n,
    swept: 0n,
    deposited: 0n,
    gasWei: 0n,
    sponsoredGasWei: 0n,
    txs: { deposit: 0, claim: 0, sweep: 0, refund: 0 },
  }
  for (const k of kinds) {
    const kind = k.kind as ChannelTx['kind']
    t.txs[kind] = num(k.n)
    t.gasWei += big(k.gas)
    if (kind === 'deposit' || kind === 'refund') t.sponsoredGasWei += big(k.gas)
    if (kind === 'claim') t.claimed = big(k.amount)
    else if (kind === 'sweep') t.swept = big(k.amount)
    else if (kind === 'deposit') t.deposited = big(k.amount)
  }
  return t
}

/** A sponsored-payer row (either engine) as a PayerSponsorship. */
export function toSponsorship(r: Record<string, unknown>): PayerSponsorship {
  return {
    payer: String(r.payer),
    network: String(r.network),
    deposits: num(r.deposits),
    refunds: num(r.refunds),
    gasWei: big(r.gas),
    earned: big(r.earned),
  }
}

/**
 * A payer's latest cooperative refund on a network since a moment (named parameters `$network`, `$payer`, `$since`; Postgres numbers them):
 * `cycle` = the charges of the refunded channel between its previous refund and this one, `since` = the charges on
 * any of the payer's channels on that network after it. No row: the payer was never refunded.
 */
export const STANDING_SQL = `SELECT
    (SELECT COUNT(*) FROM channel_charges c WHERE c.channel_id = r.channel_id AND c.at <= r.at
       AND c.at > COALESCE((SELECT MAX(p.at) FROM channel_txs p
                            WHERE p.kind = 'refund' AND p.channel_id = r.channel_id AND p.id < r.id), -1)) AS cycle,
    (SELECT COUNT(*) FROM channel_charges c JOIN channels ch ON ch.channel_id = c.channel_id
       WHERE ch.payer = r.payer AND ch.network = r.network AND c.at > r.at) AS since
  FROM channel_txs r WHERE r.network = $network AND r.payer = $payer AND r.kind = 'refund' AND r.at >= $since
  ORDER BY r.id DESC LIMIT 1`
