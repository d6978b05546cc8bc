/**
 * Settling a paid call whose result is kept (results.keep ran), for the JSON answer and the streamed one alike:
 * settle through the gate (any scheme), add the signed receipt to a successful settlement response, record the
 * outcome with the kept result.
 * @module pay/schemes/exact/settle-kept
 */
import type { Logger } from '../../../sdk'
import { b64json } from '../../wire'
import type { PaymentGate, Ticket } from './gate'
import { receiptOf, type Purchase, type ReceiptIssuer } from '../../server/receipts'
import type { Collected, SettleOutcome } from '../../server/doors'
import { RETRY_PENDING_S, type PaidResults } from './kept-results'
import type { PaymentRequirements } from '../../types'

export interface SettleKeptDeps {
  gate: PaymentGate
  results: PaidResults
  receipts: ReceiptIssuer
  log: Logger
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
