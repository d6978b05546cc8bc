import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types'
import type { Hex } from 'viem'
import type { Channel, ChannelMirror, ChannelStore, StoredChannelConfig } from '../../../db/store'
import { REASON } from '../../reasons'
import type { Rpc } from '../../facilitator/settle/rpc'
import type { ChannelFacilitator } from './facilitator'
import { MAX_WITHDRAW_DELAY, MIN_WITHDRAW_DELAY, parseChannelPayload, type ChannelPayload } from './payload'
import { channelIdOf, voucherSigner } from './voucher'

/**
 * The two doors of a voucher-paid call (x402 `batch-settlement`), as functions over the channel store:
 * `admitChannelPayment` before the handler (checks, the channel's lease, a deposit landed on chain), then either
 * `commitChannelCharge` after the handler succeeded (charged += the actual price, durably, and the PAYMENT-RESPONSE)
 * or `releaseChannel` when it failed (nothing charged; the client may send the same voucher again).
 */
export interface ChannelDoors {
  store: ChannelStore
  facilitator: ChannelFacilitator
  /** The smallest deposit accepted (atomic units), announced as `extra.minDeposit`. */
  minDeposit: bigint
  /** Gas of a mined transaction, for the books (a deposit this server sponsored). */
  gasOf?: (tx: string) => Promise<{ gasUsed?: bigint; gasPrice?: bigint }>
  /** The network's RPC: a refund counts only for its on-chain `Refunded` event (chain-proof.ts). */
  rpc?: Rpc
  /** How long an admitted request holds its channel (ms): past it, another request may take the channel over. */
  leaseMs?: number
  now?: () => number
}

/** The spec's `channelState` (a 402's corrective extra, a PAYMENT-RESPONSE's extra). */
export interface ChannelStateExtra {
  channelId: Hex
  balance: string
  totalClaimed: string
  withdrawRequestedAt: number
  refundNonce: string
  chargedCumulativeAmount?: string
}

export interface ChannelRefusal {
  ok: false
  /** The x402 reason (`invalid_batch_settlement_evm_*`) for the 402's `error`. */
  reason: string
  message: string
  /** A cumulative mismatch: the corrective 402's `extra.channelState` and (when a voucher is kept) `voucherState`. */
  channelState?: ChannelStateExtra
  voucherState?: { signedMaxClaimable: string; signature: Hex }
}

/** An admitted request: it holds its channel's lease until commit or release. */
export interface ChannelTicket {
  channelId: Hex
  network: string
  payer: string
  holder: string
  /** `charged` when admitted: the commit moves it from here. */
  base: bigint
  /** The request's ceiling (requirements.amount): the voucher is base + ceiling. */
  ceiling: bigint
  voucher: { maxClaimableAmount: bigint; signature: Hex }
  mirror: ChannelMirror
  /** The deposit that opened or topped up the channel in this request. */
  deposit?: { transaction: string; amount: bigint }
}

/** Seconds before a payer's timed withdrawal can complete from which its channel pays for nothing more. */
export const WITHDRAW_MARGIN_S = 120
export const DEFAULT_LEASE_MS = 60_000
/**
 * How long a payer's refund of a channel that bought nothing stops sponsored transactions for it (docs/channels.md
 * "Sponsored gas"): at most one sponsored deposit and one sponsored refund bought nothing per payer and network a day.
 */
export const SPONSOR_WINDOW_MS = 86_400_000
const ZERO = /^0x0{40}$/

export const refuse = (reason: string, message: string, extra: Partial<ChannelRefusal> = {}): ChannelRefusal => ({
  ok: false,
  reason,
  message,
  ...extra,
})

export const same = (a: string, b: unknown) => typeof b === 'string' && a.toLowerCase() === b.toLowerCase()

export const chainIdOf = (network: string): number | null => {
  const m = /^eip155:(\d{1,12})$/.exec(network)
  return m ? Number(m[1]) : null
}

/** The channel config against our requirements: the spec's verification rules 1-5. */
export function configError(
  c: StoredChannelConfig,
  channelId: Hex,
  r: PaymentRequirements,
  chainId: number,
): ChannelRefusal | null {
  const extra = (r.extra ?? {}) as Record<string, unknown>
  if (channelIdOf(c, chainId) !== channelId)
    return refuse(REASON.channelIdMismatch, 'the channel id is not the hash of its config')
  if (!same(c.receiver, r.payTo)) return refuse(REASON.channelReceiverMismatch, 'the channel receiver is not payTo')
  if (!same(c.receiverAuthorizer, extra.receiverAuthorizer))
    return refuse(REASON.channelReceiverAuthorizerMismatch, 'the channel receiverAuthorizer is not ours')
  if (!same(c.token, r.asset)) return refuse(REASON.channelTokenMismatch, 'the channel token is not the asset')
  if (c.withdrawDelay !== Number(extra.withdrawDelay))
    return refuse(REASON.channelWithdrawDelayMismatch, 'the channel withdrawDelay is not ours')
  if (c.withdrawDelay < MIN_WITHDRAW_DELAY || c.withdrawDelay > MAX_WITHDRAW_DELAY)
    return refuse(REASON.channelWithdrawDelayOutOfRange, 'withdrawDelay out of range')
  return null
}

export const channelStateOf = (id: Hex, m: ChannelMirror, charged?: bigint): ChannelStateExtra => ({
  channelId: id,
  balance: m.balance.toString(),
  totalClaimed: m.totalClaimed.toString(),
  withdrawRequestedAt: m.withdrawRequestedAt,
  refundNonce: m.refundNonce.toString(),
  ...(charged === undefined ? {} : { chargedCumulativeAmount: charged.toString() }),
})

/** The corrective data of a cumulative mismatch, from the kept channel (voucherState only when it holds one). */
export function mismatch(c: Channel): ChannelRefusal {
  return refuse(REASON.channelCumulativeMismatch, 'the voucher is not charged + amount', {
    channelState: channelStateOf(c.id, c, c.charged),
    ...(c.signature ? { voucherState: { signedMaxClaimable: c.signedMax.toString(), signature: c.signature } } : {}),
  })
}

/** A facilitator's `channelState` / verify `extra` as a mirror (null when a field is missing). */
export function mirrorOf(x: unknown, now: number): ChannelMirror | null {
  const o = (typeof x === 'object' && x !== null ? x : {}) as Record<string, unknown>
  const uint = (v: unknown) => (typeof v === 'string' || typeof v === 'number') && /^\d+$/.test(String(v))
  if (!uint(o.balance) || !uint(o.totalClaimed) || !uint(o.withdrawRequestedAt ?? 0) || !uint(o.refundNonce ?? 0))
    return null
  return {
    balance: BigInt(String(o.balance)),
    totalClaimed: BigInt(String(o.totalClaimed)),
    withdrawRequestedAt: Number(o.withdrawRequestedAt ?? 0),
    refundNonce: BigInt(String(o.refundNonce ?? 0)),
    syncedAt: now,
  }
}

/**
 * The admission door: checks a batch-settlement payment against our requirements and the kept channel, takes the
 * channel's lease and, for a deposit, lands the deposit on chain (through the facilitator) before the handler runs.
 * A voucher on a kept channel with an EOA payer-authorizer is checked with no RPC at all.
 */
export async function admitChannelPayment(
  d: ChannelDoors,
  payment: PaymentPayload,
  requirements: PaymentRequirements,
): Promise<{ ok: true; ticket: ChannelTicket } | ChannelRefusal> {
  const now = (d.now ?? Date.now)()
  const chainId = chainIdOf(requirements.network)
  const p = parseChannelPayload(payment?.payload)
  if (!p || p.type === 'refund') return refuse(REASON.channelPayload, 'not a deposit or voucher payload')
  if (chainId === null) return refuse(REASON.channelNetworkMismatch, 'not an EVM network')
  const bad = configError(p.config, p.voucher.channelId, requirements, chainId)
  if (bad) return bad
  const ceiling = BigInt(requirements.amount)
  if (p.type === 'deposit' && p.depositAmount < d.minDeposit)
    return refuse(REASON.channelDepositBelowMin, `the deposit is below the minimum of ${d.minDeposit}`)

  // An EOA payer authorizer: the voucher's signature is checked locally, before anything is held (a forged voucher
  // never takes the channel's lease). A smart-wallet payer (authorizer 0) is checked by the facilitator (EIP-1271).
  if (!ZERO.test(p.config.payerAuthorizer)) {
    let signer = ''
    try {
      signer = await voucherSigner(p.voucher.channelId, p.voucher.maxClaimableAmount, p.voucher.signature, chainId)
    } catch {
      /* a malformed signature: refused below */
    }
    if (!same(signer, p.config.payerAuthorizer))
      return refuse(REASON.channelVoucherSignature, 'the voucher is not signed by the payer authorizer')
  }

  const holder = crypto.randomUUID()
  const id = p.voucher.channelId
  if (!(await d.store.lease(id, holder, now + (d.leaseMs ?? DEFAULT_LEASE_MS), now)))
    return refuse(REASON.channelBusy, 'another request on this channel is in progress')
  try {
    const out = await admitHeld(d, payment, requirements, p, holder, ceiling, now)
    if (!out.ok) await d.store.release(id, holder)
    return out
  } catch (e) {
    await d.store.release(id, holder)
    throw e
  }
}

async function admitHeld(
  d: ChannelDoors,
  payment: PaymentPayload,
  requirements: PaymentRequirements,
  p: Exclude<ChannelPayload, { type: 'refund' }>,
  holder: string,
  ceiling: bigint,
  now: number,
): Promise<{ ok: true; ticket: ChannelTicket } | ChannelRefusal> {
  const id = p.voucher.channelId
  const max = p.voucher.maxClaimableAmount
  let kept = await d.store.get(id)
  let deposit: ChannelTicket['deposit']

  // A channel we keep no record of (or a smart-wallet payer): the facilitator checks the voucher and reads the
  // chain; the server's baseline is the on-chain totalClaimed (the spec's "server state loss"). A kept channel whose
  // mirror is older than its withdrawal delay less the margin (the watch stopped) is read again the same way: a
  // withdrawal started since could complete before our claim, so it is never served blind.
  const stale = kept && now - kept.syncedAt > (kept.config.withdrawDelay - WITHDRAW_MARGIN_S) * 1000
  if (!kept || ZERO.test(p.config.payerAuthorizer) || stale) {
    const v = await d.facilitator.verify(payment, requirements)
    if (!v.isValid)
      return refuse(v.invalidReason ?? REASON.channelPayload, v.invalidMessage ?? 'the payment did not verify')
    const m = mirrorOf(v.extra, now)
    if (!m) return refuse(REASON.channelPayload, 'the facilitator returned no channel state')
    if (kept) {
      await d.store.mirror(id, m)
      kept = { ...kept, ...m }
    }
    if (!kept) {
      if (max !== m.totalClaimed + ceiling)
        return refuse(REASON.channelCumulativeMismatch, 'the voucher is not charged + amount', {
          channelState: channelStateOf(id, m, m.totalClaimed),
        })
      if (p.type === 'voucher')
        kept = await d.store.open({ id, network: requirements.network, config: p.config, mirror: m }, now)
    }
  }
  const base = kept ? kept.charged : max - ceiling
  if (kept && max !== kept.charged + ceiling) return mismatch(kept)

  if (p.type === 'deposit') {
    // Sponsored gas (docs/channels.md): no deposit at our gas for a payer whose last refunded channel bought nothing.
    if ((await d.store.standing(requirements.network, p.config.payer, now - SPONSOR_WINDOW_MS)).drained)
      return refuse(
        REASON.channelNotSponsored,
        'this payer’s last refunded channel bought nothing: deposit on chain yourself, or pay with exact',
      )
    const s = await d.facilitator.settle(payment, requirements)
    if (!s.success) return refuse(s.errorReason ?? REASON.channelPayload, s.errorMessage ?? 'the deposit failed')
    const m = mirrorOf((s.extra as Record<string, unknown> | undefined)?.channelState, (d.now ?? Date.now)())
    if (!m) return refuse(REASON.channelPayload, 'the deposit returned no channel state')
    kept = await d.store.open({ id, network: requirements.network, config: p.config, mirror: m }, now)
    if (kept.charged !== base) return mismatch(kept)
    deposit = { transaction: s.transaction, amount: p.depositAmount }
    const gas = d.gasOf ? await d.gasOf(s.transaction) : {}
    await d.store.recordTx({
      network: requirements.network,
      kind: 'deposit',
      tx: s.transaction,
      amount: p.depositAmount,
      channels: 1,
      payer: p.config.payer,
      channelId: id,
      ...gas,
      at: (d.now ?? Date.now)(),
    })
  }
  const c = kept as Channel
  if (max > c.balance) return refuse(REASON.channelExceedsBalance, 'the voucher exceeds the channel balance')
  if (max <= c.totalClaimed) return refuse(REASON.channelBelowClaimed, 'the voucher is not above the amount claimed')
  if (c.withdrawRequestedAt > 0 && now / 1000 >= c.withdrawRequestedAt + c.config.withdrawDelay - WITHDRAW_MARGIN_S)
    return refuse(REASON.channelExceedsBalance, "the payer's withdrawal from this channel is about to complete")
  return {
    ok: true,
    ticket: {
      channelId: id,
      network: requirements.network,
      payer: c.payer,
      holder,
      base,
      ceiling,
      voucher: { maxClaimableAmount: max, signature: p.voucher.signature },
      mirror: c,
      deposit,
    },
  }
}

/**
 * The commit door, after the handler succeeded: charged moves from the ticket's base by `actual` (1 ≤ actual ≤ the
 * ceiling) in one durable compare-and-set that also releases the lease, and the PAYMENT-RESPONSE is built. A
 * refusal (the lease expired and another request moved the channel) means: nothing charged, do not serve.
 */
export async function commitChannelCharge(
  d: ChannelDoors,
  t: ChannelTicket,
  actual: bigint,
  slug: string,
): Promise<{ ok: true; response: SettleResponse } | ChannelRefusal> {
  if (actual < 1n || actual > t.ceiling)
    throw new Error(`a channel charge is between 1 and ${t.ceiling} (got ${actual})`)
  const to = t.base + actual
  const committed = await d.store.commitCharge({
    channelId: t.channelId,
    holder: t.holder,
    from: t.base,
    to,
    signedMax: t.voucher.maxClaimableAmount,
    signature: t.voucher.signature,
    slug,
    at: (d.now ?? Date.now)(),
  })
  if (!committed) return refuse(REASON.channelBusy, 'the channel moved while the request ran; nothing was charged')
  return {
    ok: true,
    response: {
      success: true,
      transaction: t.deposit?.transaction ?? '',
      network: t.network as SettleResponse['network'],
      payer: t.payer,
      amount: t.deposit ? t.deposit.amount.toString() : '',
      extra: { chargedAmount: actual.toString(), channelState: channelStateOf(t.channelId, t.mirror, to) },
    } as SettleResponse,
  }
}

/** The release door, when the handler failed: nothing is charged and the channel is free at once. */
export async function releaseChannel(d: ChannelDoors, t: ChannelTicket): Promise<void> {
  await d.store.release(t.channelId, t.holder)
}

/** The 402's batch-settlement `accepts` entry for a refusal: the corrective extras on a cumulative mismatch. */
export function correctiveRequirements(r: PaymentRequirements, refusal: ChannelRefusal): PaymentRequirements {
  if (!refusal.channelState) return r
  return {
    ...r,
    extra: {
      ...r.extra,
      channelState: refusal.channelState,
      ...(refusal.voucherState ? { voucherState: refusal.voucherState } : {}),
    },
  }
}
