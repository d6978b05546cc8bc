import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types'
import { REASON } from '../../reasons'
import {
  chainIdOf,
  channelStateOf,
  configError,
  DEFAULT_LEASE_MS,
  SPONSOR_WINDOW_MS,
  mirrorOf,
  mismatch,
  refuse,
  type ChannelDoors,
  type ChannelRefusal,
} from './doors'
import { readChannels } from './chain-state'
import { refundedByEvent } from './chain-proof'
import { parseChannelPayload } from './payload'

/**
 * A cooperative refund (the spec's "Cooperative refund flow"): a zero-charge voucher equal to what the channel was
 * charged; no handler runs. Under the channel's lease, the facilitator reads the chain (`verify`: the voucher, the
 * refund nonce), then one transaction claims what is charged and unclaimed and returns the rest (or the amount
 * asked) to the payer, signed by our receiver authorizer. The claim is recorded like any other, the refund beside it.
 */
export async function refundChannelPayment(
  d: ChannelDoors,
  payment: PaymentPayload,
  requirements: PaymentRequirements,
): Promise<{ ok: true; response: SettleResponse } | ChannelRefusal> {
  const now = (d.now ?? Date.now)()
  const chainId = chainIdOf(requirements.network)
  const p = parseChannelPayload(payment?.payload)
  if (p?.type !== 'refund') return refuse(REASON.channelPayload, 'not a refund payload')
  if (chainId === null) return refuse(REASON.channelNetworkMismatch, 'not an EVM network')
  const bad = configError(p.config, p.voucher.channelId, requirements, chainId)
  if (bad) return bad
  const id = p.voucher.channelId
  const holder = crypto.randomUUID()
  if (!(await d.store.lease(id, holder, now + (d.leaseMs ?? DEFAULT_LEASE_MS), now)))
    return refuse(REASON.channelBusy, 'another request on this channel is in progress')
  try {
    const kept = await d.store.get(id)
    if (!kept) return refuse(REASON.channelMissing, 'this server keeps no such channel')
    if (p.voucher.maxClaimableAmount !== kept.charged) return mismatch(kept)
    const v = await d.facilitator.verify(payment, requirements)
    if (!v.isValid)
      return refuse(v.invalidReason ?? REASON.channelPayload, v.invalidMessage ?? 'the refund did not verify')
    const pre = mirrorOf(v.extra, now)
    if (!pre) return refuse(REASON.channelPayload, 'the facilitator returned no channel state')
    const remainder = pre.balance - kept.charged
    if (remainder <= 0n) return refuse(REASON.channelRefundNoBalance, 'nothing is left to refund')
    // Sponsored gas (docs/channels.md): one refund of a channel that bought nothing, then the timed withdrawal.
    if (
      (await d.store.boughtSinceRefund(id)) === 0n &&
      (await d.store.standing(requirements.network, kept.payer, now - SPONSOR_WINDOW_MS)).drained
    )
      return refuse(
        REASON.channelNotSponsored,
        'this payer’s last refunded channel bought nothing either: use the timed withdrawal (initiateWithdraw)',
      )
    const amount = p.amount !== undefined && p.amount < remainder ? p.amount : remainder
    const claims =
      kept.charged > pre.totalClaimed
        ? [
            {
              voucher: { channel: p.config, maxClaimableAmount: kept.signedMax.toString() },
              signature: kept.signature,
              totalClaimed: kept.charged.toString(),
            },
          ]
        : []
    const enriched = {
      ...payment,
      payload: {
        type: 'refund',
        channelConfig: p.config,
        voucher: { ...p.voucher, maxClaimableAmount: p.voucher.maxClaimableAmount.toString() },
        amount: amount.toString(),
        refundNonce: pre.refundNonce.toString(),
        claims,
      },
    }
    const s = await d.facilitator.settle(enriched as never, requirements)
    if (!s.success) return refuse(s.errorReason ?? REASON.channelPayload, s.errorMessage ?? 'the refund failed')
    // The chain's word (x402 #3096): with an RPC, the refund counts only for its positive `Refunded` event; a
    // transaction that is not a successful one on chain books nothing (the watch and the claim engine catch up).
    const proven = d.rpc ? await refundedByEvent(d.rpc, s.transaction, id) : undefined
    if (proven === null)
      return refuse(REASON.settlementPending, 'the refund is not a successful transaction on chain; nothing was booked')
    const at = (d.now ?? Date.now)()
    const gas = d.gasOf ? await d.gasOf(s.transaction) : {}
    // The claim beside it is booked when the chain shows it (else the claim engine claims it again: a no-op on chain
    // if it did land). Without an RPC (a remote facilitator and no RPC URL), the remote's word, as for exact.
    const claimedHere = claims.length > 0 && (proven ? proven.claimed : true)
    if (claimedHere)
      await d.store.recordClaim({ network: requirements.network, tx: s.transaction, ...gas, at }, [
        { id, to: kept.charged },
      ])
    const refunded = proven ? proven.refunded : /^\d+$/.test(s.amount ?? '') ? BigInt(s.amount as string) : amount
    // A transaction that neither refunded nor claimed for this channel on chain is not booked as its refund.
    if (refunded > 0n || claimedHere)
      await d.store.recordTx({
        network: requirements.network,
        kind: 'refund',
        tx: s.transaction,
        amount: refunded,
        channels: 1,
        payer: kept.payer,
        channelId: id,
        ...(claimedHere ? {} : gas),
        at,
      })
    const post = d.rpc
      ? ((await readChannels(d.rpc, [id], at)).get(id) ?? null)
      : mirrorOf((s.extra as Record<string, unknown> | undefined)?.channelState, at)
    if (post) await d.store.mirror(id, post)
    // A refund capped to nothing on chain (a withdrawal or another refund took the rest first) is not a success.
    if (refunded === 0n) return refuse(REASON.channelRefundNoBalance, 'the chain refunded nothing: nothing is left')
    return {
      ok: true,
      response: {
        success: true,
        transaction: s.transaction,
        network: requirements.network as SettleResponse['network'],
        payer: kept.payer,
        amount: refunded.toString(),
        extra: { channelState: channelStateOf(id, post ?? pre, kept.charged) },
      } as SettleResponse,
    }
  } finally {
    await d.store.release(id, holder)
  }
}
