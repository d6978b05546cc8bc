import type { Channel, ChannelTotals, ChannelTx, StoredChannelConfig } from './store'

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
    txs: { deposit: 0, claim: 0, sweep: 0, refund: 0 },
  }
  for (const k of kinds) {
    const kind = k.kind as ChannelTx['kind']
    t.txs[kind] = num(k.n)
    t.gasWei += big(k.gas)
    if (kind === 'claim') t.claimed = big(k.amount)
    else if (kind === 'sweep') t.swept = big(k.amount)
    else if (kind === 'deposit') t.deposited = big(k.amount)
  }
  return t
}
