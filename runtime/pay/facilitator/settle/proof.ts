import type { Hex } from 'viem'
import { encodeFunctionData, getAddress, keccak256, toHex } from 'viem/utils'
import { VALID_BEFORE_SLACK_S } from '../../checks'
import { EIP3009_ABI } from '../../eip3009-abi'
import type { Authorization, ChainStatus } from '../../types'
import { succeeded, type RawReceipt } from './receipt'
import { BlockClock, latestBlock } from './blocks'
import { hexToBig, toHexQ, type Rpc } from './rpc'

/** keccak256("Transfer(address,address,uint256)") */
export const TRANSFER_TOPIC = keccak256(toHex('Transfer(address,address,uint256)'))
/** keccak256("AuthorizationUsed(address,bytes32)"): FiatToken emits it right before the Transfer of the authorization. */
export const AUTHORIZATION_USED_TOPIC = keccak256(toHex('AuthorizationUsed(address,bytes32)'))

const topicAddress = (a: string) => `0x${getAddress(a).slice(2).toLowerCase().padStart(64, '0')}`
const same = (a: string | undefined, b: string) => !!a && a.toLowerCase() === b.toLowerCase()

/**
 * True when `receipt` is a successful transaction in which the token `asset` used exactly this authorization to
 * pay: an AuthorizationUsed(from, nonce) log immediately followed by Transfer(from, to, value) from the same token.
 * This is the only proof of payment: authorizationState(from, nonce) alone is not (the payer can burn the nonce
 * with another authorization that pays someone else).
 */
export function paysUs(receipt: RawReceipt, asset: string, a: Authorization): boolean {
  if (!succeeded(receipt)) return false
  const logs = receipt.logs.filter((l) => same(l.address, asset))
  return logs.some((u, i) => {
    if (
      !same(u.topics[0], AUTHORIZATION_USED_TOPIC) ||
      !same(u.topics[1], topicAddress(a.from)) ||
      !same(u.topics[2], a.nonce)
    )
      return false
    const t = logs[i + 1]
    return (
      !!t &&
      hexToBig(t.logIndex) === hexToBig(u.logIndex) + 1n &&
      same(t.topics[0], TRANSFER_TOPIC) &&
      same(t.topics[1], topicAddress(a.from)) &&
      same(t.topics[2], topicAddress(a.to)) &&
      hexToBig(t.data) === BigInt(a.value)
    )
  })
}

export type Found = { tx: Hex; paid: true } | { tx: Hex; paid: false } | null

/** Blocks to search, both ends included. */
interface BlockSpan {
  from: number
  to: number
}

/** Most blocks one eth_getLogs asks for (providers refuse wider ranges). */
const WINDOW = 2_000

/**
 * Where the authorization (from, nonce) was used, from the token's AuthorizationUsed logs (both topics indexed); then
 * the Transfer of that same transaction decides whether it paid us. `where` is either a block span, searched oldest
 * first in windows of at most `window` blocks, or a number of blocks back from the head, searched newest first.
 * null: not used within the range.
 */
export async function findUse(
  rpc: Rpc,
  asset: string,
  a: Authorization,
  where: number | BlockSpan,
  window = WINDOW,
): Promise<Found> {
  const windows: BlockSpan[] = []
  if (typeof where === 'number') {
    const head = Number(hexToBig(await rpc<string>('eth_blockNumber')))
    const floor = Math.max(0, head - where)
    for (let to = head; to >= floor; to -= window) windows.push({ from: Math.max(floor, to - window + 1), to })
  } else
    for (let from = where.from; from <= where.to; from += window)
      windows.push({ from, to: Math.min(where.to, from + window - 1) })
  for (const w of windows) {
    const logs = await rpc<Array<{ transactionHash: Hex }>>('eth_getLogs', [
      {
        address: getAddress(asset),
        fromBlock: toHexQ(w.from),
        toBlock: toHexQ(w.to),
        topics: [AUTHORIZATION_USED_TOPIC, topicAddress(a.from), a.nonce.toLowerCase()],
      },
    ])
    for (const l of logs) {
      const r = await rpc<RawReceipt | null>('eth_getTransactionReceipt', [l.transactionHash])
      if (r) return { tx: l.transactionHash, paid: paysUs(r, asset, a) }
    }
  }
  return null
}

/** Clock skew allowed between our server and the chain's block timestamps, at each end of the search (seconds). */
const USE_MARGIN_S = 30
/**
 * How far past validBefore our own clock must be before an unused authorization is called expired without a block
 * that says so (seconds): a clock ahead of the chain, or an RPC whose `latest` lags, must not fail a payment whose
 * transfer can still land. The chain's own word (a head at or past validBefore) needs no margin.
 */
const EXPIRY_CLOCK_MARGIN_S = 120n

/** What bounds when an authorization can have been used, besides its own validAfter / validBefore. */
interface UseBounds {
  /** When we first received the payment (the ledger row's created_at, ms): nothing was broadcast before. */
  receivedAtMs?: number
  /**
   * Without `receivedAtMs`: the requirements' maxTimeoutSeconds. The gate refused any validBefore more than
   * maxTimeoutSeconds + VALID_BEFORE_SLACK_S ahead, so we received it at most that long before validBefore.
   */
  maxTimeoutSeconds?: number
}

/**
 * The chain times (unix seconds, inclusive) at which the authorization can have been used: FiatToken accepts it only
 * while validAfter < block.timestamp < validBefore, and we broadcast it only after we received it. Widened by
 * USE_MARGIN_S at each end.
 */
function useTimes(a: Authorization, o: UseBounds = {}): { from: number; to: number } {
  const validBefore = Number(a.validBefore)
  let from = Number(a.validAfter) + 1
  if (o.receivedAtMs && Number.isFinite(o.receivedAtMs)) from = Math.max(from, Math.floor(o.receivedAtMs / 1000))
  else if (o.maxTimeoutSeconds && Number.isFinite(o.maxTimeoutSeconds))
    from = Math.max(from, validBefore - o.maxTimeoutSeconds - VALID_BEFORE_SLACK_S)
  return { from: from - USE_MARGIN_S, to: validBefore - 1 + USE_MARGIN_S }
}

/** Options of {@link chainStatus}. */
interface StatusOptions extends UseBounds {
  /** Expected block interval (ms): a hint for finding blocks by timestamp; default 2000 (Base). */
  blockTimeMs?: number
  /** Most blocks searched for one authorization's use (a cap on long validity windows); default 10,000. */
  maxBlocks?: number
}

/**
 * The settlement status of a payment from the chain alone, for reconciliation (self-facilitation and remote
 * facilitators alike): settled only with a receipt proving this authorization paid us (the given transaction, or
 * one found by the token's AuthorizationUsed logs for (from, nonce) among the blocks mined while the authorization
 * was usable, however long ago: see useTimes); failed when the nonce was used to pay someone else, or is unused and
 * expired (by the chain's head timestamp, or by our clock EXPIRY_CLOCK_MARGIN_S past validBefore); unknown otherwise.
 */
export async function chainStatus(
  rpc: Rpc,
  tx: string,
  a: Authorization,
  asset: string,
  o: StatusOptions = {},
): Promise<ChainStatus> {
  if (tx) {
    const r = await rpc<RawReceipt | null>('eth_getTransactionReceipt', [tx])
    if (r && paysUs(r, asset, a)) return { state: 'settled', tx }
  }
  // One head for the whole answer: the state is read at that block, so "unused at a block past validBefore" is final.
  const head = await latestBlock(rpc)
  const used =
    hexToBig(
      await rpc<string>('eth_call', [
        {
          to: getAddress(asset),
          data: encodeFunctionData({
            abi: EIP3009_ABI,
            functionName: 'authorizationState',
            args: [getAddress(a.from), a.nonce],
          }),
        },
        toHexQ(head.number),
      ]),
    ) !== 0n
  if (!used) {
    const validBefore = BigInt(a.validBefore)
    const expired =
      validBefore <= BigInt(head.timestamp) ||
      validBefore + EXPIRY_CLOCK_MARGIN_S < BigInt(Math.floor(Date.now() / 1000))
    return { state: expired ? 'failed' : 'unknown' }
  }
  const t = useTimes(a, o)
  const clock = new BlockClock(rpc, head, (o.blockTimeMs ?? 2_000) / 1000)
  const span = await clock.span(t.from, t.to)
  const max = o.maxBlocks ?? 10_000
  // The earliest blocks first: the authorization is used within seconds of being received.
  const found =
    (span ? await findUse(rpc, asset, a, { from: span.from, to: Math.min(span.to, span.from + max - 1) }) : null) ??
    // Used, but not within the window: the clock that wrote the row may run ahead of the chain. Search back from
    // the head once (rare; the usual case stays one eth_getLogs).
    (await findUse(rpc, asset, a, max))
  if (!found) return { state: 'unknown' } // used outside everything searched: no proof either way, an operator decides
  return found.paid ? { state: 'settled', tx: found.tx } : { state: 'failed', tx: found.tx }
}
