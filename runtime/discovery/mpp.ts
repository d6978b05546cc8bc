/**
 * MPP (the Machine Payments Protocol, paymentauth.org) as the published documents describe it beside x402: method
 * `evm`, intent `charge`, on every EVM network that sells `exact`, for the same price, token and recipient
 * (runtime/pay/schemes/mpp, docs/payments.md). Nothing when this server offers no MPP challenge.
 * @module discovery/mpp
 */
import type { Config } from '../config'
import { mppKeys } from '../pay/schemes/mpp/secret'

const chainIdOf = (network: string) => /^eip155:(\d+)$/.exec(network)?.[1]

/** MPP's terms on this server, or undefined when it is off (no MPP_SECRET_KEY to bind challenges to). */
export function mppTerms(cfg: Config) {
  const keys = mppKeys(cfg)
  if (!keys) return undefined
  const networks = cfg.networks.flatMap((n) => {
    const chainId = chainIdOf(n.network)
    return chainId ? [{ network: n.network, chainId: Number(chainId), currency: n.asset }] : []
  })
  if (!networks.length) return undefined
  return {
    method: 'evm',
    intent: 'charge',
    realm: keys.realm,
    networks,
    credential: 'Authorization: Payment <base64url credential> (the 402 carries WWW-Authenticate: Payment challenges)',
    receipt: 'Payment-Receipt',
    mcp: 'credential in _meta["org.paymentauth/credential"], receipt in _meta["org.paymentauth/receipt"]; a refused credential is JSON-RPC error -32042 with data.challenges',
  }
}

/** OpenAPI `x-payment-info.protocols` entries for MPP (the @agentcash/discovery shape: method, intent, currency). */
export const mppProtocols = (cfg: Config) =>
  (mppTerms(cfg)?.networks ?? []).map((n) => ({
    mpp: { method: 'evm', intent: 'charge', currency: n.currency, network: n.network, chainId: n.chainId },
  }))
