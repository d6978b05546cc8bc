/**
 * Solana `exact` as a scheme plugin of the resource server (runtime/pay/server/doors.ts): it claims a payment whose
 * `accepted.network` is a `solana:` one, admits it (./scheme.ts), and offers its entry after the EVM ones.
 * @module pay/schemes/svm-exact/plugin
 */
import type { PaymentRequirements as X402Requirements } from '@x402/core/types'
import type { Admission, PaidCallDeps, SchemeRequest } from '../../server/doors'
import type { PaymentRequirements } from '../../types'
import type { SolanaOffer } from './offer'
import { admitSvm } from './scheme'

/** The payment a request presents: its header and, for x402 v2, the header's JSON. */
export interface Presented {
  decoded: { accepted?: { scheme?: unknown; network?: unknown } } | null
}

export interface SvmExactPlugin {
  readonly name: 'svm-exact'
  readonly network: string
  claims(p: Presented): boolean
  admit(s: SchemeRequest, deps: PaidCallDeps): Promise<Admission>
  /** One Solana entry per resource, priced like its first (Base) `exact` entry. */
  offers(base: PaymentRequirements[]): X402Requirements[]
}

export function svmExactScheme(offer: SolanaOffer): SvmExactPlugin {
  return {
    name: 'svm-exact',
    network: offer.network,
    claims: (p) => {
      const network = p.decoded?.accepted?.network
      return typeof network === 'string' && network.startsWith('solana:')
    },
    admit: (s, deps) => admitSvm(offer, s.header, s, deps),
    offers: (base) => (base[0] ? [offer.entry(base[0])] : []),
  }
}
