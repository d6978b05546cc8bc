/**
 * A remote facilitator's channel answers checked on chain, when the network has an RPC URL (docs/channels.md): the
 * state a `verify` or a deposit / refund reports (balance, totalClaimed, pending withdrawal, refund nonce) is replaced
 * by the state read from the chain, and a `settle` counts only when its transaction is mined, succeeded and touched
 * the settlement contract. So nothing is served beyond the on-chain balance − claimed, whatever the remote says.
 * @module pay/schemes/batch-settlement/remote-proof
 */
import type { PaymentPayload, SettleResponse } from '@x402/core/types'
import type { Hex } from 'viem'
import { BATCH_SETTLEMENT } from '../../../chain/addresses'
import type { ChannelMirror } from '../../../db/store'
import { succeeded, type RawReceipt } from '../../facilitator/settle/receipt'
import type { Rpc } from '../../facilitator/settle/rpc'
import { REASON } from '../../reasons'
import { readChannels } from './chain-state'
import type { ChannelFacilitator } from './facilitator'

const ID = /^0x[0-9a-fA-F]{64}$/

/** The channel a deposit, voucher or refund payload names (claims and sweeps name none). */
const channelOf = (p: PaymentPayload): Hex | undefined => {
  const id = (p.payload as { voucher?: { channelId?: unknown } })?.voucher?.channelId
  return typeof id === 'string' && ID.test(id) ? (id as Hex) : undefined
}

const stateOf = (m: ChannelMirror) => ({
  balance: m.balance.toString(),
  totalClaimed: m.totalClaimed.toString(),
  withdrawRequestedAt: m.withdrawRequestedAt,
  refundNonce: m.refundNonce.toString(),
})

/** The on-chain state of `id` (throws when it cannot be read: the door answers 503, nothing charged). */
async function chainState(rpc: Rpc, id: Hex) {
  const m = (await readChannels(rpc, [id])).get(id)
  if (!m) throw new Error('the channel state could not be read from the chain')
  return stateOf(m)
}

/** Whether `tx` is mined (waiting up to `waitMs` for our node to see it), succeeded and logged by the contract. */
async function landed(rpc: Rpc, tx: string, waitMs: number): Promise<boolean> {
  if (!ID.test(tx)) return false
  for (const t0 = Date.now(); ; await Bun.sleep(200)) {
    const r = await rpc<(RawReceipt & { to?: string }) | null>('eth_getTransactionReceipt', [tx])
    if (r) return succeeded(r) && r.logs.some((l) => l.address.toLowerCase() === BATCH_SETTLEMENT.toLowerCase())
    if (Date.now() - t0 > waitMs) return false
  }
}

export function provenChannelFacilitator(inner: ChannelFacilitator, rpc: Rpc, waitMs = 10_000): ChannelFacilitator {
  return {
    async verify(p, r) {
      const v = await inner.verify(p, r)
      const id = channelOf(p)
      if (!v.isValid || !id) return v
      return { ...v, extra: { ...(v.extra ?? {}), ...(await chainState(rpc, id)) } }
    },
    async settle(p, r) {
      const s = await inner.settle(p, r)
      if (!s.success) return s
      if (!(await landed(rpc, s.transaction, waitMs)))
        return {
          ...s,
          success: false,
          errorReason: REASON.settlementPending,
          errorMessage: 'the facilitator’s transaction is not a successful settlement-contract transaction on chain',
        } as SettleResponse
      const id = channelOf(p)
      const extra = (s.extra ?? {}) as Record<string, unknown>
      if (!id || !extra.channelState) return s
      const channelState = { ...(extra.channelState as object), ...(await chainState(rpc, id)) }
      return { ...s, extra: { ...extra, channelState } }
    },
  }
}
