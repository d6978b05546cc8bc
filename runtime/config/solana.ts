/**
 * x402 `exact` on Solana (runtime/pay/schemes/svm-exact, docs/payments.md "Solana"): the network, its USDC, the
 * receiving address, and the backend: self-facilitated (an RPC endpoint and the fee payer's key) or a remote
 * facilitator (SOLANA_FACILITATOR_URL; the RPC endpoint still serves the chain reads). Off unless SOLANA_RPC_URL is set
 * (the embedded dev chain sets its own when no payment configuration is given).
 */
import { type Reader, variable } from './declare'
import { looksHttp } from './parse'
import type { Config } from './types'

export const SOLANA_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
export const SOLANA_DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
/** USDC (SPL Token, 6 decimals) per Solana network: @x402/svm's USDC_MAINNET_ADDRESS / USDC_DEVNET_ADDRESS. */
export const SOLANA_USDC: Record<string, string> = {
  [SOLANA_MAINNET]: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  [SOLANA_DEVNET]: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU',
}

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/

export const SOLANA_RPC_URL = variable({
  name: 'SOLANA_RPC_URL',
  concern: 'payment',
  valid: 'an http(s) URL',
  description:
    'turns on x402 `exact` on Solana: the Solana JSON-RPC endpoint. Self-facilitated (with SOLANA_FEE_PAYER_KEY) it verifies (simulates) and settles payments; with SOLANA_FACILITATOR_URL it serves only the chain reads (the payee token account check at boot, reconciliation). Needs SOLANA_PAY_TO; the Solana entry is listed in every 402 after the EVM ones',
})
export const SOLANA_FACILITATOR_URL = variable({
  name: 'SOLANA_FACILITATOR_URL',
  concern: 'payment',
  valid: 'an http(s) URL (x402 v2 /supported, /verify, /settle)',
  description:
    "Solana `exact` through a remote facilitator instead of self-facilitation (no SOLANA_FEE_PAYER_KEY): boot reads its /supported and offers Solana only when it lists `exact` on SOLANA_NETWORK (its `extra.feePayer` is the 402's); verify and settle go to it. Needs SOLANA_RPC_URL for the chain reads",
})
export const SOLANA_FEE_PAYER_KEY = variable({
  name: 'SOLANA_FEE_PAYER_KEY',
  secret: true,
  concern: 'payment',
  valid: 'base58 of a 64-byte secret key (the Solana CLI / wallet-export layout)',
  description:
    "the facilitator's key on Solana: it co-signs every payment as fee payer (`extra.feePayer` in the 402) and pays its fees in SOL (about 10,000 lamports a payment); boot refuses to offer Solana while it holds no SOL",
})
export const SOLANA_PAY_TO = variable({
  name: 'SOLANA_PAY_TO',
  concern: 'payment',
  valid: 'a base58 Solana address',
  description:
    "the receiving Solana address (`payTo`); its USDC associated token account must exist (the payer's transaction never creates it): boot refuses to offer Solana without it",
})
export const SOLANA_NETWORK = variable({
  name: 'SOLANA_NETWORK',
  default: SOLANA_MAINNET,
  concern: 'payment',
  valid: `${SOLANA_MAINNET} (mainnet) or ${SOLANA_DEVNET} (devnet)`,
  description: "the Solana network (CAIP-2); the asset is that network's USDC",
})

export const solanaVariables = [
  SOLANA_RPC_URL,
  SOLANA_FACILITATOR_URL,
  SOLANA_FEE_PAYER_KEY,
  SOLANA_PAY_TO,
  SOLANA_NETWORK,
]

/** Solana `exact` settings: `rpcUrl` empty = off (unless the embedded dev chain turns it on). */
export function readSolana(r: Reader): Pick<Config, 'solana'> {
  const network = String(r.text(SOLANA_NETWORK) || SOLANA_MAINNET)
  const solana = {
    network,
    asset: SOLANA_USDC[network] ?? '',
    rpcUrl: r.text(SOLANA_RPC_URL),
    facilitatorUrl: r.text(SOLANA_FACILITATOR_URL),
    feePayerKey: r.text(SOLANA_FEE_PAYER_KEY),
    payTo: r.text(SOLANA_PAY_TO),
  }
  const p = r.problems
  if (!SOLANA_USDC[network]) p.push(`SOLANA_NETWORK must be ${SOLANA_MAINNET} or ${SOLANA_DEVNET} (got ${network})`)
  if (solana.rpcUrl) {
    if (!looksHttp(solana.rpcUrl)) p.push('SOLANA_RPC_URL must be an http(s) URL')
    if (solana.facilitatorUrl) {
      if (!looksHttp(solana.facilitatorUrl)) p.push('SOLANA_FACILITATOR_URL must be an http(s) URL')
      if (solana.feePayerKey)
        p.push(
          'SOLANA_FACILITATOR_URL and SOLANA_FEE_PAYER_KEY exclude each other (the remote facilitator pays the fees): set one',
        )
    } else if (!solana.feePayerKey)
      p.push(
        'SOLANA_RPC_URL needs SOLANA_FEE_PAYER_KEY (the fee payer of Solana payments), or SOLANA_FACILITATOR_URL (a remote facilitator)',
      )
    if (!solana.payTo) p.push('SOLANA_RPC_URL needs SOLANA_PAY_TO (the receiving Solana address)')
  } else if (solana.feePayerKey || solana.payTo || solana.facilitatorUrl)
    p.push(
      'SOLANA_FEE_PAYER_KEY, SOLANA_FACILITATOR_URL and SOLANA_PAY_TO need SOLANA_RPC_URL (the Solana chain reads)',
    )
  if (
    solana.feePayerKey &&
    !(BASE58.test(solana.feePayerKey) && solana.feePayerKey.length >= 86 && solana.feePayerKey.length <= 88)
  )
    p.push('SOLANA_FEE_PAYER_KEY must be base58 of a 64-byte secret key')
  if (solana.payTo && !(BASE58.test(solana.payTo) && solana.payTo.length >= 32 && solana.payTo.length <= 44))
    p.push(`SOLANA_PAY_TO must be a base58 Solana address (got ${solana.payTo})`)
  return { solana }
}
