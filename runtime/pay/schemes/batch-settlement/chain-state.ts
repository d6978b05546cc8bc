import type { Hex } from 'viem'
import { decodeFunctionResult, encodeFunctionData, parseAbi } from 'viem/utils'
import { onFirstUse } from '../../../chain/on-first-use'
import { BATCH_SETTLEMENT, MULTICALL3 } from '../../../chain/addresses'
import type { ChannelMirror } from '../../../db/store'
import { type Rpc, withReadRetry } from '../../facilitator/settle/rpc'

const READS = onFirstUse(() =>
  parseAbi([
    'function channels(bytes32 channelId) view returns (uint128 balance, uint128 totalClaimed)',
    'function pendingWithdrawals(bytes32 channelId) view returns (uint128 amount, uint40 initiatedAt)',
    'function refundNonce(bytes32 channelId) view returns (uint256)',
  ]),
)
const AGGREGATE3 = onFirstUse(() =>
  parseAbi([
    'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
  ]),
)
/** Channels read per eth_call (three reads each). */
const PER_CALL = 100

/**
 * The on-chain state of channels (balance, totalClaimed, pending withdrawal, refund nonce), read through Multicall3:
 * one eth_call per 100 channels, retried on a transient node error (`withReadRetry`, as the settler's reads). A
 * channel whose reads failed is left out.
 */
export async function readChannels(rpc: Rpc, ids: Hex[], now = Date.now()): Promise<Map<Hex, ChannelMirror>> {
  const out = new Map<Hex, ChannelMirror>()
  for (let i = 0; i < ids.length; i += PER_CALL) {
    const part = ids.slice(i, i + PER_CALL)
    const calls = part.flatMap((id) =>
      (['channels', 'pendingWithdrawals', 'refundNonce'] as const).map((functionName) => ({
        target: BATCH_SETTLEMENT as Hex,
        allowFailure: true,
        callData: encodeFunctionData({ abi: READS(), functionName, args: [id] }),
      })),
    )
    const ret = await withReadRetry(rpc)<Hex>('eth_call', [
      { to: MULTICALL3, data: encodeFunctionData({ abi: AGGREGATE3(), functionName: 'aggregate3', args: [calls] }) },
      'latest',
    ])
    const results = decodeFunctionResult({ abi: AGGREGATE3(), functionName: 'aggregate3', data: ret })
    part.forEach((id, k) => {
      const [ch, wd, rn] = results.slice(k * 3, k * 3 + 3)
      if (!ch.success || !wd.success || !rn.success) return
      const [balance, totalClaimed] = decodeFunctionResult({
        abi: READS(),
        functionName: 'channels',
        data: ch.returnData,
      })
      const [, initiatedAt] = decodeFunctionResult({
        abi: READS(),
        functionName: 'pendingWithdrawals',
        data: wd.returnData,
      })
      const nonce = decodeFunctionResult({ abi: READS(), functionName: 'refundNonce', data: rn.returnData })
      out.set(id, {
        balance,
        totalClaimed,
        withdrawRequestedAt: Number(initiatedAt),
        refundNonce: nonce,
        syncedAt: now,
      })
    })
  }
  return out
}
