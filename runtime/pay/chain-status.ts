import type { Facilitator } from './types'
import { chainStatus } from './settle/proof'
import { createRpc, withReadRetry } from './settle/rpc'

/**
 * Read-only settlement status from the chain, for reconciling payments settled through remote facilitators
 * (RPC_URL beside FACILITATOR_URL): the same proof of payment as self-facilitation (a receipt whose logs show this
 * authorization paying us; authorizationState alone is not proof).
 */
export function createChainStatus(rpcUrl: string, timeoutMs = 10_000): Facilitator['status'] {
  const rpc = withReadRetry(createRpc(rpcUrl, timeoutMs))
  return (tx, p, req, receivedAtMs) =>
    chainStatus(rpc, tx, p.payload.authorization, req.asset, { receivedAtMs, maxTimeoutSeconds: req.maxTimeoutSeconds })
}
