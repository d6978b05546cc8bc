/**
 * MPP's `Payment-Receipt` of a paid answer (base64url JSON): method, reference (the settlement transaction),
 * status, timestamp, and, as draft-evm-charge-01 lists them, the challenge id and chain id; with this server's
 * signed offer-receipt (the JWS every paid answer carries, docs/receipts.md) under `extensions`, as in x402's
 * PAYMENT-RESPONSE.
 * @module pay/schemes/mpp/receipt
 */
import { METHOD } from './challenge'

export interface MppReceipt {
  method: typeof METHOD
  reference: string
  status: 'success'
  timestamp: string
  challengeId: string
  chainId: number
  extensions?: Record<string, unknown>
}

export function mppReceipt(
  transaction: string,
  challengeId: string,
  chainId: number,
  extensions?: Record<string, unknown>,
  now = new Date(),
): MppReceipt {
  return {
    method: METHOD,
    reference: transaction,
    status: 'success',
    timestamp: now.toISOString(),
    challengeId,
    chainId,
    ...(extensions ? { extensions } : {}),
  }
}

/** The header value: base64url (no padding) of the receipt's JSON. */
export const receiptHeader = (r: MppReceipt): string => Buffer.from(JSON.stringify(r)).toString('base64url')
