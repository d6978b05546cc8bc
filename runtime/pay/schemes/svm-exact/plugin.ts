/**
 * Solana `exact` as a scheme plugin of the resource server (runtime/pay/server/doors.ts `SchemePlugin`): it claims a
 * payment whose `accepted.network` is a `solana:` one, admits it (./scheme.ts), and offers one entry per resource
 * after the EVM ones, priced like its first (Base) `exact` entry.
 * @module pay/schemes/svm-exact/plugin
 */
import type { SchemePlugin } from '../../server/doors'
import type { SolanaOffer } from './offer'
import { admitSvm } from './scheme'

export function svmExactScheme(offer: SolanaOffer): SchemePlugin {
  return {
    name: 'svm-exact',
    claims: (p) => {
      const network = p.decoded?.accepted?.network
      return typeof network === 'string' && network.startsWith('solana:')
    },
    admit: (s, deps) => admitSvm(offer, s.header, s, deps),
    offers: (base) => (base[0] ? [offer.entry(base[0])] : []),
  }
}
