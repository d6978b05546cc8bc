/**
 * Solana `exact` as this server offers it: the network, its USDC, the receiving address and the backend, and the
 * 402 entry of a resource (priced like its Base `exact` entry, listed after the EVM entries).
 * @module pay/schemes/svm-exact/offer
 */
import type { PaymentRequirements as X402Requirements } from '@x402/core/types'
import type { LedgerStore, ResultStoreLike } from '../../../db/store'
import type { SvmBackend } from './backend'

export interface SolanaOffer {
  network: string
  /** The network's USDC mint (base58). */
  asset: string
  /** The receiving address (base58; its USDC token account exists: checked at boot). */
  payTo: string
  backend: SvmBackend
  ledger: LedgerStore
  results: ResultStoreLike
  /** The Solana entry of a resource whose (first) `exact` entry is `exact`: same amount, same timeout. */
  entry(exact: { amount: string; maxTimeoutSeconds: number }): X402Requirements
}

export function solanaOffer(o: Omit<SolanaOffer, 'entry'>): SolanaOffer {
  return {
    ...o,
    entry: (exact) => ({
      scheme: 'exact',
      network: o.network as X402Requirements['network'],
      amount: exact.amount,
      asset: o.asset,
      payTo: o.payTo,
      maxTimeoutSeconds: exact.maxTimeoutSeconds,
      extra: { feePayer: o.backend.feePayer },
    }),
  }
}
