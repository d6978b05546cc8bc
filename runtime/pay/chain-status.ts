import { createPublicClient, getAddress, http, type Hex } from 'viem'
import { EIP3009_ABI } from './eip3009-abi'
import type { Facilitator } from './types'

/**
 * Read-only settlement status from the chain, for reconciling payments settled through remote facilitators
 * (RPC_URL beside FACILITATOR_URL): the receipt when the transaction is known, else the token's
 * authorizationState (used = the signed transfer to payTo happened) or expiry. Same rules as self-facilitation.
 */
export function createChainStatus(rpcUrl: string, timeoutMs = 10_000): Facilitator['status'] {
  const pub = createPublicClient({ transport: http(rpcUrl, { timeout: timeoutMs, retryCount: 0 }) })
  return async (tx, p, req) => {
    if (tx) {
      const receipt = await pub.getTransactionReceipt({ hash: tx as Hex }).catch(() => null)
      if (receipt) return receipt.status === 'success' ? 'settled' : 'failed'
    }
    const a = p.payload.authorization
    const used = await pub.readContract({ address: getAddress(req.asset), abi: EIP3009_ABI, functionName: 'authorizationState', args: [getAddress(a.from), a.nonce] })
    if (used) return 'settled'
    return BigInt(a.validBefore) < BigInt(Math.floor(Date.now() / 1000)) ? 'failed' : 'unknown'
  }
}
