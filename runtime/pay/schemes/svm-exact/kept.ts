/**
 * Kept results of Solana payments (the paid-results store, shared with every scheme): what a repeated payment for
 * the identical request collects instead of running again, and its signed receipt.
 * @module pay/schemes/svm-exact/kept
 */
import type { StoredResult } from '../../../db/store'
import type { Logger } from '../../../sdk'
import { b64json } from '../../wire'
import { type Purchase, type ReceiptIssuer, receiptOf } from '../../server/receipts'
import type { Collected } from '../../server/doors'
import type { SolanaOffer } from './offer'

/** A kept result stays collectable this long after the payment could last land. */
export const RESULT_GRACE_S = 600
/** Retry-After (s) for a payment still in flight, and for one whose settlement is pending reconciliation. */
export const RETRY_IN_FLIGHT_S = 2
export const RETRY_PENDING_S = 10

/** What a kept row gives a repeated payment (the same payment or payment identifier, the same request). */
export function outcomeOf(row: StoredResult, payer: string): Collected | null {
  switch (row.state) {
    case 'settled': {
      if (row.body === null) return { kind: 'gone' }
      if (row.receipt) return { kind: 'result', body: row.body, receipt: row.receipt }
      // Settled by reconciliation after its request ended: the receipt is signed at this collection.
      const transaction = row.tx_hash ?? ''
      return {
        kind: 'result',
        body: row.body,
        receipt: b64json({ success: true, transaction, network: row.network, payer }),
        unsigned: { paymentId: row.payment_id, transaction, network: row.network, payer },
      }
    }
    case 'pending':
      return { kind: 'pending', retryAfter: RETRY_PENDING_S }
    case 'reserved':
    case 'verified':
    case 'settling':
      return { kind: 'pending', retryAfter: RETRY_IN_FLIGHT_S }
    default:
      return null
  }
}

/** A collection whose receipt was rebuilt from the ledger: signed now and kept, so every later one sends the same. */
export async function signedCollection(
  offer: SolanaOffer,
  deps: { receipts: ReceiptIssuer; log: Logger },
  c: Collected,
  p: Purchase,
  amount: string,
): Promise<Collected> {
  if (c.kind !== 'result' || !c.unsigned) return c
  const { paymentId, transaction, network, payer } = c.unsigned
  const extensions = await receiptOf(deps, p, {
    scheme: 'exact',
    network,
    asset: offer.asset,
    amount,
    payTo: offer.payTo,
    payer,
    transaction,
  })
  if (!extensions) return c
  const receipt = b64json({ success: true, transaction, network, payer, extensions })
  await Promise.resolve(offer.results.setReceipt(paymentId, receipt)).catch(() => {})
  return { kind: 'result', body: c.body, receipt }
}
