/**
 * Solana `exact` in tests: the embedded Solana dev chain, a server taking Solana payments through it, the official
 * client (`ExactSvmScheme` on `x402Client` + `@x402/fetch`, RPC at the dev chain) and balance reads.
 */
import { createKeyPairSignerFromBytes, getBase58Encoder, type KeyPairSigner } from '@solana/kit'
import { x402Client } from '@x402/core/client'
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types'
import { wrapFetchWithPayment } from '@x402/fetch'
import { ExactSvmScheme } from '@x402/svm/exact/client'
import type { SolanaDevChain } from '../../runtime/chain/solana/start'

/** The env that makes a server take Solana payments on `chain` (self-facilitated with the chain's fee payer). */
export const solanaEnv = (chain: SolanaDevChain, payTo = chain.payee.address): Record<string, string> => ({
  SOLANA_RPC_URL: chain.url,
  SOLANA_FEE_PAYER_KEY: chain.feePayerSecretBase58,
  SOLANA_PAY_TO: payTo,
})

export const solanaPayer = (chain: SolanaDevChain): Promise<KeyPairSigner> =>
  createKeyPairSignerFromBytes(getBase58Encoder().encode(chain.payer.secretBase58))

/** The official client for Solana only (it takes the 402's Solana entry). */
export const solanaClient = (chain: SolanaDevChain, payer: KeyPairSigner) =>
  new x402Client().register('solana:*', new ExactSvmScheme(payer, { rpcUrl: chain.url }))

/** @x402/fetch paying with the official Solana client. */
export const solanaFetch = (chain: SolanaDevChain, payer: KeyPairSigner, base: typeof fetch = fetch) =>
  wrapFetchWithPayment(base, solanaClient(chain, payer))

/**
 * The PAYMENT-SIGNATURE header the official client builds for `accepted` (a 402 offering only it; its spend controls
 * off, so a test can have it pay in a token that is not USDC).
 */
export async function solanaPaymentHeader(
  chain: SolanaDevChain,
  payer: KeyPairSigner,
  required: PaymentRequired,
  accepted: PaymentRequirements,
): Promise<string> {
  const client = solanaClient(chain, payer)
  client.setSpendControls(false)
  const payload = await client.createPaymentPayload({ ...required, accepts: [accepted] })
  return Buffer.from(JSON.stringify(payload)).toString('base64')
}

const rpc = async (chain: SolanaDevChain, method: string, params: unknown[]) => {
  const res = await fetch(chain.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await res.json()) as { result: any }).result
}

/** A token account's USDC (atomic units). */
export const usdcOf = async (chain: SolanaDevChain, account: string): Promise<bigint> =>
  BigInt((await rpc(chain, 'getTokenAccountBalance', [account])).value.amount)

/** The decoded PAYMENT-REQUIRED header of a 402. */
export const paymentRequiredOf = (res: Response): PaymentRequired =>
  JSON.parse(Buffer.from(res.headers.get('payment-required') ?? '', 'base64').toString('utf8'))
