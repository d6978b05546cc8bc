import { encodeFunctionData, getAddress, keccak256, toHex, type Hex } from 'viem'
import { EIP3009_ABI } from '../eip3009-abi'
import type { Authorization, ChainStatus } from '../types'
import { succeeded, type RawReceipt } from './receipt'
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

/**
 * Where the authorization (from, nonce) was used, from the token's AuthorizationUsed logs (both topics indexed)
 * over the last `lookback` blocks, newest first in windows of `window` blocks; then the Transfer of that same
 * transaction decides whether it paid us. null: not used within the range.
 */
export async function findUse(
  rpc: Rpc,
  asset: string,
  a: Authorization,
  lookback: number,
  window = 2_000,
): Promise<Found> {
  const head = Number(hexToBig(await rpc<string>('eth_blockNumber')))
  const floor = Math.max(0, head - lookback)
  for (let to = head; to >= floor; to -= window) {
    const from = Math.max(floor, to - window + 1)
    const logs = await rpc<Array<{ transactionHash: Hex }>>('eth_getLogs', [
      {
        address: getAddress(asset),
        fromBlock: toHexQ(from),
        toBlock: toHexQ(to),
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

/**
 * The settlement status of a payment from the chain alone, for reconciliation (self-facilitation and remote
 * facilitators alike): settled only with a receipt proving this authorization paid us (the given transaction, or
 * one found by the token's AuthorizationUsed logs for (from, nonce) within `lookback` blocks); failed when the
 * nonce was used to pay someone else, or is unused and expired; unknown otherwise.
 */
export async function chainStatus(
  rpc: Rpc,
  tx: string,
  a: Authorization,
  asset: string,
  lookback = 10_000,
): Promise<ChainStatus> {
  if (tx) {
    const r = await rpc<RawReceipt | null>('eth_getTransactionReceipt', [tx])
    if (r && paysUs(r, asset, a)) return { state: 'settled', tx }
  }
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
        'latest',
      ]),
    ) !== 0n
  if (!used) return { state: BigInt(a.validBefore) < BigInt(Math.floor(Date.now() / 1000)) ? 'failed' : 'unknown' }
  const found = await findUse(rpc, asset, a, lookback)
  if (!found) return { state: 'unknown' } // used outside the searched range: no proof either way, an operator decides
  return found.paid ? { state: 'settled', tx: found.tx } : { state: 'failed', tx: found.tx }
}
