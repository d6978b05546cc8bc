import type { Facilitator } from '../types'
import { createRpc, withReadRetry } from './settle/rpc'

/**
 * What this server reads from the chain itself beside remote facilitators (RPC_URL beside FACILITATOR_URL):
 * settlement status by the same proof of payment as self-facilitation (a receipt whose logs show this authorization
 * paying us; authorizationState alone is not proof), for reconciliation and for checking a facilitator's settle
 * answer; and payers' token balances, for the per-payer in-flight hold (runtime/pay/schemes/exact/payer-funds.ts).
 */
export function createChainReader(
  rpcUrl: string,
  timeoutMs = 10_000,
): Required<Pick<Facilitator, 'status' | 'balance'>> {
  const rpc = withReadRetry(createRpc(rpcUrl, timeoutMs))
  // settle/proof and settle/balance (and the viem they import) load on the first read, not at boot.
  let proof: Promise<typeof import('./settle/proof')> | undefined
  let token: Promise<typeof import('./settle/balance')> | undefined
  return {
    status: async (tx, p, req, receivedAtMs) =>
      (await (proof ??= import('./settle/proof'))).chainStatus(rpc, tx, p.payload.authorization, req.asset, {
        receivedAtMs,
        maxTimeoutSeconds: req.maxTimeoutSeconds,
      }),
    balance: async (payer, asset) => (await (token ??= import('./settle/balance'))).tokenBalance(rpc, payer, asset),
  }
}

/** Settlement status only (see createChainReader). */
export const createChainStatus = (rpcUrl: string, timeoutMs = 10_000): Facilitator['status'] =>
  createChainReader(rpcUrl, timeoutMs).status
