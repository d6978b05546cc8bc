/**
 * A Solana `exact` payment header (x402 v2 only): `accepted` names a `solana:` network and `payload.transaction`
 * is the payer's partially signed transaction (base64). Decoded once, with what the ledger keys it by: the payer
 * (the TransferChecked authority, base58) and the SHA-256 of the message bytes (what @x402/svm's duplicate cache
 * keys by: the fee payer's signature slot is not part of it, so a replay cannot dodge it).
 * @module pay/schemes/svm-exact/payload
 */
import { createHash } from 'node:crypto'
import type { PaymentPayload } from '@x402/core/types'
import { getBase64Encoder, getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit'
import { getTokenPayerFromTransaction } from '@x402/svm'
import { decodeB64Json } from '../../wire'

export interface SvmPayment {
  /** The decoded header, as @x402/svm's facilitator takes it. */
  payload: PaymentPayload
  /** The network the payment names (`accepted.network`). */
  network: string
  /** The transaction's message bytes (what the fee payer signs). */
  messageBytes: Uint8Array
  /** SHA-256 (hex) of the message bytes: the ledger's nonce for this payment. */
  messageHash: string
  /** The payer (TransferChecked authority), base58; empty when the transaction holds no transfer. */
  payer: string
  /** The token account the transfer draws from (base58; empty when none), whose balance covers the payer's calls. */
  source: string
}

const TOKEN_PROGRAMS = new Set([
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
])

/** The source token account of the message's first token-program instruction (the transfer), or ''. */
function sourceOf(messageBytes: Uint8Array): string {
  const m = getCompiledTransactionMessageDecoder().decode(messageBytes)
  const accounts = m.staticAccounts ?? []
  for (const ix of m.instructions ?? []) {
    if (!TOKEN_PROGRAMS.has(String(accounts[ix.programAddressIndex]))) continue
    const i = ix.accountIndices?.[0]
    return i === undefined ? '' : String(accounts[i] ?? '')
  }
  return ''
}

/** The network a v2 header names when it names a Solana one, else null (another scheme decodes it). */
export function solanaNetworkOf(header: string, version: 1 | 2): string | null {
  if (version !== 2) return null
  const raw = decodeB64Json(header)
  const network = (raw?.accepted as { network?: unknown } | undefined)?.network
  return typeof network === 'string' && network.startsWith('solana:') ? network : null
}

/** Decodes a Solana payment header; null when it is not a well-formed one (refused as `invalid_payload`). */
export function decodeSvmPayment(header: string): SvmPayment | null {
  const raw = decodeB64Json(header)
  const accepted = raw?.accepted as Record<string, unknown> | undefined
  const inner = raw?.payload as { transaction?: unknown } | undefined
  if (raw?.x402Version !== 2 || !accepted || typeof accepted.network !== 'string') return null
  if (typeof inner?.transaction !== 'string' || inner.transaction.length > 4096) return null
  try {
    // Decoded here (not with @x402/svm's decodeTransactionFromPayload, which prints a stack for a bad one).
    const tx = getTransactionDecoder().decode(getBase64Encoder().encode(inner.transaction))
    const messageBytes = new Uint8Array(tx.messageBytes)
    return {
      payload: raw as unknown as PaymentPayload,
      network: accepted.network,
      messageBytes,
      messageHash: createHash('sha256').update(messageBytes).digest('hex'),
      payer: getTokenPayerFromTransaction(tx),
      source: sourceOf(messageBytes),
    }
  } catch {
    return null
  }
}
