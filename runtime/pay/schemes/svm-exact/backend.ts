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
  getBase64Encoder,
  getTransactionDecoder,
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
  /**
   * The landed transaction whose message is `messageBytes` among the recent ones of `owner`'s token account of `mint`
   * (newest first, back to `sinceS` unix seconds, at most LOCATE_MAX): its id, or null with `complete` when the search
   * reached `sinceS` (then it is surely not there) rather than its bound.
   */
  locate(
    messageBytes: Uint8Array,
    owner: string,
    mint: string,
    sinceS: number,
  ): Promise<{ signature: string } | { signature: null; complete: boolean }>
}

/** How many of a token account's recent transactions one search reads at most (one getTransaction each). */
export const LOCATE_MAX = 200

const sameBytes = (a: ArrayLike<number>, b: ArrayLike<number>) => Buffer.from(a).equals(Buffer.from(b))

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
export type SvmChainReads = Pick<SvmBackend, 'status' | 'hasTokenAccount' | 'lamports' | 'tokenBalance' | 'locate'>

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
      const { value } = await rpc.getAccountInfo(await ataOf(owner, mint), { encoding: 'base64' }).send()
      return value !== null && value.owner === TOKEN_PROGRAM_ADDRESS
    },
    async lamports(address) {
      return (await rpc.getBalance(address as Address).send()).value
    },
    async tokenBalance(account) {
      return BigInt((await rpc.getTokenAccountBalance(account as Address).send()).value.amount)
    },
    async locate(messageBytes, owner, mint, sinceS) {
      const recent = await rpc
        .getSignaturesForAddress(await ataOf(owner, mint), { limit: LOCATE_MAX, commitment: 'confirmed' })
        .send()
      for (const r of recent) {
        // Older than the payment: the search went far enough back.
        if (r.blockTime !== null && Number(r.blockTime) < sinceS) return { signature: null, complete: true }
        const t = await rpc
          .getTransaction(r.signature, {
            encoding: 'base64',
            maxSupportedTransactionVersion: 0,
            commitment: 'confirmed',
          })
          .send()
        if (!t) continue
        const wire = getBase64Encoder().encode(t.transaction[0])
        if (sameBytes(getTransactionDecoder().decode(wire).messageBytes, messageBytes))
          return { signature: r.signature }
      }
      return { signature: null, complete: recent.length < LOCATE_MAX }
    },
  }
}

const ataOf = async (owner: string, mint: string) =>
  (
    await findAssociatedTokenPda({
      mint: mint as Address,
      owner: owner as Address,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    })
  )[0]
