/**
 * Solana `exact` in the published documents (/services, the manifest, Bazaar, OpenAPI, llms.txt): listed only once
 * boot offers it (`config.solana.offered`, runtime/pay/schemes/svm-exact/boot.ts), as the 402 lists it: one entry per
 * resource after the EVM ones, priced like the Base `exact` entry.
 */
import type { Config } from '../config'
import { type SolanaTerms, solanaEntry } from '../pay/schemes/svm-exact/offer'
import type { PaymentRequirements } from '../pay/types'

/** The Solana terms when Solana is offered, else undefined. */
export function solanaTermsOf(cfg: Config): SolanaTerms | undefined {
  const s = cfg.solana
  return s?.offered ? { network: s.network, asset: s.asset, payTo: s.payTo, feePayer: s.offered.feePayer } : undefined
}

/** The Solana entry after `exact` (a resource's entries on the EVM networks), or none. */
export const solanaAccepts = (cfg: Config, exact: PaymentRequirements[]) => {
  const t = solanaTermsOf(cfg)
  return t && exact[0] ? [solanaEntry(t, exact[0])] : []
}

/** The Solana fields of /services and the manifest: the scheme, network, token, payee and fee payer. */
export const solanaFields = (cfg: Config) => {
  const t = solanaTermsOf(cfg)
  return t
    ? {
        solana: {
          scheme: 'exact',
          network: t.network,
          asset: t.asset,
          payTo: t.payTo,
          feePayer: t.feePayer,
          client:
            "new x402Client().register('solana:*', new ExactSvmScheme(signer)) from @x402/fetch and @x402/svm/exact/client",
        },
      }
    : {}
}

/** How an agent on Solana pays (llms.txt, OpenAPI's guidance). */
export const solanaHowTo = (cfg: Config): string | undefined => {
  const t = solanaTermsOf(cfg)
  if (!t) return undefined
  return `Paying from Solana: every 402 also lists an \`exact\` entry on ${t.network} (after the EVM entries; the same amount, in USDC ${t.asset}, to \`payTo\` ${t.payTo}, with \`extra.feePayer\` ${t.feePayer}, who pays the transaction fee). Build a transaction with one TransferChecked of exactly that amount from your USDC token account to the associated token account of \`payTo\`, fee payer = \`extra.feePayer\`, partially sign it (your signature only), and send it base64 as \`payload.transaction\` in the PaymentPayload whose \`accepted\` is that entry. With the official client: \`wrapFetchWithPayment(fetch, new x402Client().register('solana:*', new ExactSvmScheme(signer, { rpcUrl })))\` from \`@x402/fetch\` and \`@x402/svm/exact/client\` (it picks the Solana entry by itself). A transaction pays once: sent again, it collects the kept result of the identical request and is refused for any other.`
}
