/**
 * Solana `exact` at boot: offered only when the receiving address has its USDC token account (the payer's
 * transaction never creates it: every payment would fail in simulation) and the fee payer holds SOL (it pays every
 * payment's fees); through a remote facilitator (SOLANA_FACILITATOR_URL) only when its /supported lists `exact` on
 * the network (its fee payer is then the 402's). Otherwise a clear error in the log and Solana is left out of the
 * 402s; the rest is served.
 * @module pay/schemes/svm-exact/boot
 */
import type { KeyPairSigner } from '@solana/kit'
import type { Config } from '../../../config'
import { maskUrl } from '../../../config/parse'
import type { LedgerStore, ResultStoreLike } from '../../../db/store'
import type { Logger } from '../../../sdk'
import { safeUrl } from '../../facilitator/remote'
import { feePayerOf, type SvmBackend, svmBackend } from './backend'
import { remoteFeePayer, remoteSvmBackend, remoteSvmFacilitator } from './remote-backend'
import { PayerCooldowns } from '../../../db/cooldowns'
import { type SolanaOffer, solanaOffer } from './offer'
import { reconcileSvm } from './reconcile'

export interface SolanaBootOptions {
  config: Config
  ledger: LedgerStore
  results: ResultStoreLike
  log: Logger
  /** The fee payer's signer (the embedded dev chain's); else read from SOLANA_FEE_PAYER_KEY. */
  feePayer?: KeyPairSigner
  /** How often the Solana rows are reconciled with the chain (ms). */
  reconcileEveryMs: number
  staleMs: number
}

export interface SolanaService {
  offer: SolanaOffer
  stop(): void
}

/** Why Solana cannot be offered, or null when it can. */
async function refusal(offer: SolanaOffer, rpcUrl: string): Promise<string | null> {
  const { backend, payTo, asset } = offer
  try {
    if (!(await backend.hasTokenAccount(payTo, asset)))
      return `the receiving address SOLANA_PAY_TO ${payTo} has no USDC token account (mint ${asset}); create its associated token account once (e.g. \`spl-token create-account ${asset} --owner ${payTo}\`), then restart`
    // A remote facilitator's fee payer is its own to fund.
    if (backend.kind === 'local' && (await backend.lamports(backend.feePayer)) === 0n)
      return `the fee payer ${backend.feePayer} (SOLANA_FEE_PAYER_KEY) holds no SOL to pay the fees of payments; fund it, then restart`
  } catch (e) {
    // The endpoint's URL may carry an API key: never in the log.
    const why = (e as Error).message.split(rpcUrl).join(maskUrl(rpcUrl)).slice(0, 200)
    return `the Solana RPC (SOLANA_RPC_URL ${maskUrl(rpcUrl)}) did not answer: ${why}`
  }
  return null
}

/** The Solana offer when configured and able to take payments, with its reconciliation running; else undefined. */
export async function bootSolana(o: SolanaBootOptions): Promise<SolanaService | undefined> {
  const s = o.config.solana
  if (!s.rpcUrl) return undefined
  let backend: SvmBackend
  if (s.facilitatorUrl) {
    const remote = remoteSvmFacilitator(s.facilitatorUrl)
    const named = await remoteFeePayer(remote, s.network)
    if ('why' in named) {
      o.log.error(`Solana payments are NOT offered: ${named.why}. Everything else is served.`)
      return undefined
    }
    backend = remoteSvmBackend(s.network, s.rpcUrl, remote, named.feePayer)
  } else {
    let signer: KeyPairSigner
    try {
      signer = o.feePayer ?? (await feePayerOf(s.feePayerKey))
    } catch {
      o.log.error('Solana payments are NOT offered: SOLANA_FEE_PAYER_KEY is not a valid 64-byte secret key')
      return undefined
    }
    backend = svmBackend(s.network, s.rpcUrl, signer)
  }
  const offer = solanaOffer({
    network: s.network,
    asset: s.asset,
    payTo: s.payTo,
    backend,
    ledger: o.ledger,
    results: o.results,
    // the ledger's shared cool-downs (Postgres), else this process's
    cooldowns: o.ledger.cooldowns ?? new PayerCooldowns(),
  })
  const why = await refusal(offer, s.rpcUrl)
  if (why) {
    o.log.error(`Solana payments are NOT offered: ${why}. Everything else is served.`)
    return undefined
  }
  const round = (staleMs: number) =>
    reconcileSvm(o.ledger, backend, o.log, staleMs, o.staleMs).catch((e) =>
      o.log.warn('solana reconcile failed', { error: String(e) }),
    )
  await round(0)
  const timer = setInterval(() => void round(o.staleMs), o.reconcileEveryMs)
  timer.unref?.()
  // The published documents (discovery) list Solana from now on.
  o.config.solana.offered = { feePayer: backend.feePayer }
  o.log.info('solana payments offered', {
    network: s.network,
    pay_to: s.payTo,
    fee_payer: backend.feePayer,
    facilitator: s.facilitatorUrl ? safeUrl(s.facilitatorUrl) : 'self',
  })
  return { offer, stop: () => clearInterval(timer) }
}
