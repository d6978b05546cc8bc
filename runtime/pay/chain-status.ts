import type { Facilitator } from './types'
import { createRpc, withReadRetry } from './settle/rpc'

/**
 * Read-only settlement status from the chain, for reconciling payments settled through remote facilitators
 * (RPC_URL beside FACILITATOR_URL): the same proof of payment as self-facilitation (a receipt whose logs show this
 * authorization paying us; authorizationState alone is not proof).
 */
export function createChainStatus(rpcUrl: string, timeoutMs = 10_000): Facilitator['status'] {
  const rpc = withReadRetry(createRpc(rpcUrl, timeoutMs))
  // settle/proof (and the viem it imports) loads on the first status read, not at boot.
  let proof: Promise<typeof import('./settle/proof')> | undefined
  return async (tx, p, req, receivedAtMs) =>
    (await (proof ??= import('./settle/proof'))).chainStatus(rpc, tx, p.payload.authorization, req.asset, {
      receivedAtMs,
      maxTimeoutSeconds: req.maxTimeoutSeconds,
    })
}
