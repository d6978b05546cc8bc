/**
 * `ownershipProofs` of /.well-known/x402 (x402scan's ownership check): the origin string (`https://api.example.com`)
 * signed as an EIP-191 personal message by a payTo key. Those made offline come from OWNERSHIP_PROOFS
 * (scripts/ownership-proof.ts); where the server holds a network's payTo key (one of that network's settler keys
 * is the payTo), it signs the origin itself, once, on the first request for the document (viem's accounts module
 * loads only then, and only when there are settler keys).
 * @module discovery/ownership
 */
import type { Config } from '../config'
import { settlerKeys } from '../config/parse'

export async function ownershipProofs(cfg: Config, payTo: string): Promise<string[]> {
  const proofs = [...(cfg.provider.ownershipProofs ?? [])]
  const held = cfg.networks.flatMap((n) =>
    settlerKeys(n.settlerPrivateKey).map((key) => ({ key, payTo: (n.payTo || payTo).toLowerCase() })),
  )
  if (held.length) {
    const { privateKeyToAccount } = await import('viem/accounts')
    const origin = new URL(cfg.provider.apiBase).origin
    const signed = new Set<string>()
    for (const h of held) {
      const account = privateKeyToAccount(h.key)
      if (account.address.toLowerCase() !== h.payTo || signed.has(h.payTo)) continue
      signed.add(h.payTo)
      proofs.push(await account.signMessage({ message: origin }))
    }
  }
  return [...new Set(proofs)]
}
