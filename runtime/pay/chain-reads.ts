import { createPublicClient, getAddress, http, type Hex } from 'viem'
import { EIP3009_ABI } from './eip3009-abi'
import type { Facilitator } from './types'

/** A read retried on failure (nodes answer transient errors under load): up to 3 tries, 50 ms apart. */
async function retried<T>(fn: () => Promise<T>, tries = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn()
    } catch (e) {
      if (i >= tries) throw e
      await new Promise((r) => setTimeout(r, 50 * i))
    }
  }
}

/**
 * Completes a chain-backed facilitator with the two reads the gate relies on, when the facilitator does not provide
 * them itself: the payer's token balance (for the in-flight reservation) and the gas figures of a successful
 * settlement (read from its receipt). A facilitator that fills them is used as is; nothing else changes.
 */
export function withChainReads(f: Facilitator, rpcUrl: string, timeoutMs = 10_000): Facilitator {
  const pub = createPublicClient({ transport: http(rpcUrl, { timeout: timeoutMs, retryCount: 0 }) })
  return {
    kind: f.kind,
    verify: (p, req) => f.verify(p, req),
    status: (tx, p, req) => f.status(tx, p, req),
    health: f.health ? () => f.health!() : undefined,
    close: f.close ? () => f.close!() : undefined,
    balance: f.balance
      ? (payer, asset) => f.balance!(payer, asset)
      : (payer, asset) => retried(() => pub.readContract({ address: getAddress(asset), abi: EIP3009_ABI, functionName: 'balanceOf', args: [getAddress(payer)] })),
    async settle(p, req, onSubmitted) {
      const r = await f.settle(p, req, onSubmitted)
      if (!r.success || !r.transaction || (r.gasUsed && r.effectiveGasPrice)) return r
      // The payment is settled whatever this read says: a failed read only leaves the gas unknown.
      const receipt = await retried(() => pub.getTransactionReceipt({ hash: r.transaction as Hex })).catch(() => null)
      return receipt ? { ...r, gasUsed: receipt.gasUsed.toString(), effectiveGasPrice: receipt.effectiveGasPrice.toString() } : r
    },
  }
}
