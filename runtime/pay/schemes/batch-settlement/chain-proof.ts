/**
 * The chain's word on a channel transaction (issue #32 item 7, x402 #3092 / #3096 / #2471): a sweep counts only for
 * the positive `Settled` event its receipt holds for our (receiver, token), a refund only for the positive `Refunded`
 * event of its channel, a claim only once its receipt is there; "nothing to settle" is believed only when the
 * contract's `receivers(receiver, token)` says nothing claimed is left unswept. Never the facilitator's amount.
 * @module pay/schemes/batch-settlement/chain-proof
 */
import type { Hex } from 'viem'
import { decodeEventLog, decodeFunctionResult, encodeFunctionData, parseAbi } from 'viem/utils'
import { onFirstUse } from '../../../chain/on-first-use'
import { BATCH_SETTLEMENT } from '../../../chain/addresses'
import { succeeded, type RawReceipt } from '../../facilitator/settle/receipt'
import { type Rpc, withReadRetry } from '../../facilitator/settle/rpc'

const EVENTS = onFirstUse(() =>
  parseAbi([
    'event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount)',
    'event Refunded(bytes32 indexed channelId, address indexed sender, uint128 amount, uint256 nonce)',
    'event Claimed(bytes32 indexed channelId, address indexed sender, uint128 amount, uint128 totalClaimed)',
  ]),
)
const RECEIVERS = onFirstUse(() =>
  parseAbi([
    'function receivers(address receiver, address token) view returns (uint128 totalClaimed, uint128 totalSettled)',
  ]),
)
const TX = /^0x[0-9a-fA-F]{64}$/

/**
 * The successful receipt of `tx`, waiting up to `waitMs` for our node to see it (the claim's receipt before a sweep,
 * #2471); null when it is not mined by then, or reverted.
 */
export async function minedReceipt(rpc: Rpc, tx: string, waitMs = 10_000, pollMs = 200): Promise<RawReceipt | null> {
  if (!TX.test(tx)) return null
  const read = withReadRetry(rpc)
  for (const t0 = Date.now(); ; await Bun.sleep(pollMs)) {
    const r = await read<RawReceipt | null>('eth_getTransactionReceipt', [tx])
    if (r) return succeeded(r) ? r : null
    if (Date.now() - t0 > waitMs) return null
  }
}

/** The settlement contract's events of one kind in a receipt, decoded (others skipped). */
function events(r: RawReceipt, eventName: 'Settled' | 'Refunded' | 'Claimed') {
  const out = []
  for (const l of r.logs) {
    if (l.address.toLowerCase() !== BATCH_SETTLEMENT.toLowerCase()) continue
    try {
      const e = decodeEventLog({ abi: EVENTS(), data: l.data as Hex, topics: l.topics as [Hex, ...Hex[]] })
      if (e.eventName === eventName) out.push(e)
    } catch {
      /* another event of the contract */
    }
  }
  return out
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** What a sweep moved to `receiver` in `token`, by its `Settled` events (0 when none is positive; null: no receipt). */
export async function sweptByEvent(rpc: Rpc, tx: string, receiver: string, token: string): Promise<bigint | null> {
  const r = await minedReceipt(rpc, tx)
  if (!r) return null
  let amount = 0n
  for (const e of events(r, 'Settled'))
    if (e.eventName === 'Settled' && same(e.args.receiver, receiver) && same(e.args.token, token))
      amount += e.args.amount
  return amount
}

/**
 * What a refund transaction did to `channelId`, by its events: `refunded` = its `Refunded` amounts (0 when none),
 * `claimed` = whether it claimed for the channel too (a `Claimed` event); null: no successful receipt.
 */
export async function refundedByEvent(
  rpc: Rpc,
  tx: string,
  channelId: string,
): Promise<{ refunded: bigint; claimed: boolean } | null> {
  const r = await minedReceipt(rpc, tx)
  if (!r) return null
  let refunded = 0n
  for (const e of events(r, 'Refunded'))
    if (e.eventName === 'Refunded' && same(e.args.channelId, channelId)) refunded += e.args.amount
  const claimed = events(r, 'Claimed').some((e) => e.eventName === 'Claimed' && same(e.args.channelId, channelId))
  return { refunded, claimed }
}

/** Claimed and not yet swept on chain for (receiver, token): the contract's `receivers` (the post-state read). */
export async function unsweptOnChain(rpc: Rpc, receiver: string, token: string): Promise<bigint> {
  const data = encodeFunctionData({
    abi: RECEIVERS(),
    functionName: 'receivers',
    args: [receiver as Hex, token as Hex],
  })
  const ret = await withReadRetry(rpc)<Hex>('eth_call', [{ to: BATCH_SETTLEMENT, data }, 'latest'])
  const [claimed, settled] = decodeFunctionResult({ abi: RECEIVERS(), functionName: 'receivers', data: ret })
  return claimed - settled
}
