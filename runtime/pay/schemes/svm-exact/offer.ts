/**
 * Solana `exact` as this server offers it: the network, its USDC, the receiving address and the backend, and the
 * 402 entry of a resource (priced like its Base `exact` entry, listed after the EVM entries).
 * @module pay/schemes/svm-exact/offer
 */
import type { PaymentRequirements as X402Requirements } from '@x402/core/types'
import type { CooldownStore, LedgerStore, ResultStoreLike } from '../../../db/store'
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
  /** Payers cooled down after a settlement failed once verified (./cooldowns.ts). */
  cooldowns: CooldownStore
  /** The Solana entry of a resource whose (first) `exact` entry is `exact`: same amount, same timeout. */
  entry(exact: { amount: string; maxTimeoutSeconds: number }): X402Requirements
}

/** What a Solana entry says besides the price: the 402's, and the published documents' (runtime/discovery). */
export interface SolanaTerms {
  network: string
  asset: string
  payTo: string
  feePayer: string
}

/** The Solana entry beside a resource's (first) `exact` entry: the same amount and timeout, paid in Solana USDC. */
export const solanaEntry = (
  t: SolanaTerms,
  exact: { amount: string; maxTimeoutSeconds: number },
): X402Requirements => ({
  scheme: 'exact',
  network: t.network as X402Requirements['network'],
  amount: exact.amount,
  asset: t.asset,
  payTo: t.payTo,
  maxTimeoutSeconds: exact.maxTimeoutSeconds,
  extra: { feePayer: t.feePayer },
})

export function solanaOffer(o: Omit<SolanaOffer, 'entry'>): SolanaOffer {
  const terms = { network: o.network, asset: o.asset, payTo: o.payTo, feePayer: o.backend.feePayer }
  return { ...o, entry: (exact) => solanaEntry(terms, exact) }
}
