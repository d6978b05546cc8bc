/**
 * The Solana `exact` facilitator this server runs for itself: @x402/svm's own verify and settle (simulate, co-sign as
 * fee payer, send, confirm) over SOLANA_RPC_URL, plus the chain reads the scheme needs around them (the transaction
 * id before sending, a signature's status for reconciliation, the boot checks).
 * @module pay/schemes/svm-exact/backend
 */
import {
  type Address,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  getBase58Decoder,
  getBase58Encoder,
  type KeyPairSigner,
  signBytes,
  type Signature,
} from '@solana/kit'
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import { x402Facilitator } from '@x402/core/facilitator'
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types'
import { toFacilitatorSvmSigner } from '@x402/svm'
import { registerExactSvmScheme } from '@x402/svm/exact/facilitator'

/** What the chain says about a transaction id. */
export type LandedState = 'landed' | 'failed' | 'unseen'

export interface SvmBackend {
  /** `local`: this server's own fee payer settles; `remote`: a remote facilitator does (./remote-backend.ts). */
  kind: 'local' | 'remote'
  network: string
  /** The fee payer's address: `extra.feePayer` of every Solana entry. */
  feePayer: string
  verify(payload: PaymentPayload, req: PaymentRequirements): Promise<VerifyResponse>
  settle(payload: PaymentPayload, req: PaymentRequirements): Promise<SettleResponse>
  /**
   * The transaction id (the fee payer's Ed25519 signature of the message, deterministic) before it is sent; null
   * with a remote facilitator (its fee payer signs: the id is known only from its answer, or the chain).
   */
  transactionId(messageBytes: Uint8Array): Promise<string | null>
  status(signature: string): Promise<LandedState>
  /** True when `owner`'s associated token account of `mint` exists. */
  hasTokenAccount(owner: string, mint: string): Promise<boolean>
  lamports(address: string): Promise<bigint>
  /** A token account's balance (atomic units). */
  tokenBalance(account: string): Promise<bigint>
}

/** The fee payer's signer from the 64-byte base58 secret (the Solana CLI layout; both halves must match). */
export const feePayerOf = (secretBase58: string): Promise<KeyPairSigner> =>
  createKeyPairSignerFromBytes(getBase58Encoder().encode(secretBase58))

export function svmBackend(network: string, rpcUrl: string, signer: KeyPairSigner): SvmBackend {
  const facilitator = registerExactSvmScheme(new x402Facilitator(), {
    signer: toFacilitatorSvmSigner(signer, { defaultRpcUrl: rpcUrl }),
    networks: network as `${string}:${string}`,
  })
  return {
    kind: 'local',
    network,
    feePayer: signer.address,
    verify: (payload, req) => facilitator.verify(payload, req),
    settle: (payload, req) => facilitator.settle(payload, req),
    async transactionId(messageBytes) {
      return getBase58Decoder().decode(await signBytes(signer.keyPair.privateKey, messageBytes))
    },
    ...svmChainReads(rpcUrl),
  }
}

/** The chain reads every backend serves from SOLANA_RPC_URL, whoever settles. */
export type SvmChainReads = Pick<SvmBackend, 'status' | 'hasTokenAccount' | 'lamports' | 'tokenBalance'>

export function svmChainReads(rpcUrl: string): SvmChainReads {
  const rpc = createSolanaRpc(rpcUrl)
  return {
    async status(signature) {
      const { value } = await rpc
        .getSignatureStatuses([signature as Signature], { searchTransactionHistory: true })
        .send()
      const s = value[0]
      if (!s) return 'unseen'
      if (s.err) return 'failed'
      return s.confirmationStatus === 'confirmed' || s.confirmationStatus === 'finalized' ? 'landed' : 'unseen'
    },
    async hasTokenAccount(owner, mint) {
      const [ata] = await findAssociatedTokenPda({
        mint: mint as Address,
        owner: owner as Address,
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      })
      const { value } = await rpc.getAccountInfo(ata, { encoding: 'base64' }).send()
      return value !== null && value.owner === TOKEN_PROGRAM_ADDRESS
    },
    async lamports(address) {
      return (await rpc.getBalance(address as Address).send()).value
    },
    async tokenBalance(account) {
      return BigInt((await rpc.getTokenAccountBalance(account as Address).send()).value.amount)
    },
  }
}
