/**
 * Settling a paid call whose result is kept (results.keep ran), for the JSON answer and the streamed one alike:
 * settle through the gate (any scheme), add the signed receipt to a successful settlement response, record the
 * outcome with the kept result.
 * @module pay/server/settle-kept
 */
import type { Logger } from '../../../sdk'
import { b64json } from '../../wire'
import type { PaymentGate, Ticket } from './gate'
import { receiptExtension, type ReceiptFacts, type ReceiptIssuer } from '../../server/receipts'
import { RETRY_PENDING_S, type Collected, type PaidResults } from '../../server/kept-results'
import type { PaymentRequirements } from '../../types'

export interface SettleKeptDeps {
  gate: PaymentGate
  results: PaidResults
  receipts: ReceiptIssuer
  log: Logger
}

/** What was bought, for the receipt. */
export interface Purchase {
  /** The paid resource (the URL of the 402 challenge). */
  resourceUrl: string
  service: string
  tier: string
  requestHash: string
  requestId: string
}

/** The answer body's `charged` (docs/channels.md "Pay for tokens used"): USDC atomic units and USD. */
export interface ChargedField {
  atomic: string
  usd: string
}

/**
 * The signed receipt of a paid purchase as the settlement response's `extensions` (docs/receipts.md), or undefined
 * when signing failed: the payer has paid, so the answer goes out without a receipt rather than not at all (logged).
 */
export async function receiptOf(
  deps: Pick<SettleKeptDeps, 'receipts' | 'log'>,
  p: Purchase,
  paid: Omit<ReceiptFacts, 'resourceUrl' | 'service' | 'tier' | 'requestHash'>,
): Promise<ReturnType<typeof receiptExtension> | undefined> {
  try {
    const { resourceUrl, service, tier, requestHash } = p
    return receiptExtension(await deps.receipts.issue({ resourceUrl, service, tier, requestHash, ...paid }))
  } catch (e) {
    deps.log.error('signing the receipt failed', { request_id: p.requestId, error: String(e) })
    return undefined
  }
}

export type SettleOutcome =
  | {
      ok: true
      /** PAYMENT-RESPONSE (v2) or X-PAYMENT-RESPONSE (v1). */
      headerName: string
      header: string
      /** The settlement response the header encodes (with the signed receipt in `extensions`). */
      response: Record<string, unknown>
      /** Paid by tokens used (a channel voucher on a model tier): what was charged, added to the answer's body. */
      charged?: ChargedField
    }
  | {
      ok: false
      reason: string
      message: string
      /** True when the transfer may still confirm: the same payment sent again collects the kept result. */
      pending: boolean
      headers: Record<string, string>
    }

export async function settleKept(deps: SettleKeptDeps, t: Ticket, p: Purchase): Promise<SettleOutcome> {
  const settled = await deps.gate.settle(t)
  const response: Record<string, unknown> = {
    success: settled.success,
    transaction: settled.transaction,
    network: settled.network,
    payer: settled.payer,
    ...(settled.errorReason ? { errorReason: settled.errorReason } : {}),
  }
  if (settled.success) {
    const extensions = await receiptOf(deps, p, {
      scheme: t.requirements.scheme,
      network: settled.network,
      asset: t.requirements.asset,
      amount: t.requirements.amount,
      payTo: t.requirements.payTo,
      payer: settled.payer ?? t.payer,
      transaction: settled.transaction,
    })
    if (extensions) response.extensions = extensions
  }
  const header = b64json(response)
  const headerName = t.payment.x402Version === 2 ? 'payment-response' : 'x-payment-response'
  if (settled.success) {
    await deps.results.settled(t, header, settled.transaction)
    return { ok: true, headerName, header, response }
  }
  if (!settled.pending) await deps.results.discard(t)
  // A pending settlement keeps the result: the same payment sent again collects it once the transfer is confirmed.
  const later = settled.pending ? { 'retry-after': String(RETRY_PENDING_S) } : undefined
  return {
    ok: false,
    reason: settled.errorReason ?? 'settlement_failed',
    message: later
      ? 'Settlement is not confirmed yet; send the same payment again later to collect the result.'
      : 'Settlement did not complete; the result is withheld.',
    pending: Boolean(settled.pending),
    headers: { [headerName]: header, ...later },
  }
}

/**
 * A kept result collected again whose settlement response was rebuilt from the ledger (the payment settled by
 * reconciliation after its request had ended): signed now, kept, and the same one sent on every later collection.
 */
export async function signedCollection(
  deps: SettleKeptDeps,
  c: Collected,
  p: Purchase,
  requirements: PaymentRequirements,
): Promise<Collected> {
  if (c.kind !== 'result' || !c.unsigned) return c
  const { paymentId, transaction, network, payer } = c.unsigned
  const extensions = await receiptOf(deps, p, {
    scheme: requirements.scheme,
    network,
    asset: requirements.asset,
    amount: requirements.amount,
    payTo: requirements.payTo,
    payer,
    transaction,
  })
  if (!extensions) return c
  const header = b64json({ success: true, transaction, network, payer, extensions })
  await deps.results.receiptIssued(paymentId, header)
  return { kind: 'result', body: c.body, receipt: header }
}
