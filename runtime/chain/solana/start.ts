import type { Address, KeyPairSigner } from '@solana/kit'
import type { SolanaLedger } from './ledger'

/** A running Solana dev chain: LiteSVM in-process with USDC at its real mint, and its JSON-RPC endpoint. */
export interface SolanaDevChain {
  /** The JSON-RPC endpoint, `http://127.0.0.1:<port>`. */
  url: string
  /** Holds test USDC (`payerUsdc`) and 1 SOL. Its secret is the 64-byte base58 layout: NOT real money. */
  payer: { address: Address; secretBase58: string; usdcAccount: Address }
  /** Receives payments: its USDC account exists (empty) and it holds 1 SOL. */
  payee: { address: Address; usdcAccount: Address }
  /** The facilitator's key: fee payer of every payment (100 SOL). */
  feePayer: KeyPairSigner
  /** The fee payer's secret (64-byte base58 layout), for a server process of a test (`SOLANA_FEE_PAYER_KEY`). */
  feePayerSecretBase58: string
  /** The chain itself, for tests that look underneath the RPC. */
  ledger: SolanaLedger
  /** Stops the RPC server (idempotent). All chain state is lost. */
  stop(): Promise<void>
}

/** Options of {@link startSolanaDevChain}. */
export interface SolanaDevChainOptions {
  /** USDC (atomic, 6 decimals) held by the payer; default 1_000_000_000n = 1,000 USDC. */
  payerUsdc?: bigint
  /** Port of the RPC on 127.0.0.1; default a free one. */
  port?: number
}

/**
 * Starts the embedded Solana dev chain: fresh keys every time, the USDC mint at
 * `EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`, a funded payer, a payee with its USDC account, a fee payer with SOL,
 * and a JSON-RPC server the official `@x402/svm` client and facilitator use unmodified. litesvm (a native module) is
 * loaded only here, on the first start. NOT real money.
 */
export async function startSolanaDevChain(options: SolanaDevChainOptions = {}): Promise<SolanaDevChain> {
  const { buildSolanaDevChain } = await import('./dev-chain')
  return buildSolanaDevChain(options)
}
