import type { LedgerStore } from '../../../db/store'
import type { Logger } from '../../../sdk'
import type { ChainStatus, DecodedPayment, Facilitator, PaymentRequirements } from '../../types'

/**
 * Brings the ledger in line with the chain. `settling`/`pending` rows (sent, or possibly sent, but not confirmed)
 * become settled or failed from the receipt or the token's authorizationState; `reserved`/`verified` rows older
 * than `staleMs` (their request died before settlement, e.g. a crash) are released: they were never broadcast.
 * Safe to run at any time and repeatedly: a row becomes settled exactly once (settleOnce; revenue is read from
 * settled rows), and in-flight `settling` rows younger than `staleMs` are left to their request.
 */
type Outcome = { settled: number; failed: number; released: number; unknown: number }

/**
 * On a shared database (Postgres, N instances): rows reserved by another instance (`row.instance`) are left to it
 * until `othersStaleMs` passed since their last change (that instance died), and only one instance reconciles at a
 * time (`ledger.exclusively`; the others skip the round).
 */
export interface SharedReconcile {
  instanceId?: string
  othersStaleMs?: number
}

export async function reconcile(
  ledger: LedgerStore,
  facilitator: Facilitator,
  log: Logger,
  staleMs = 10 * 60_000,
  shared: SharedReconcile = {},
): Promise<Outcome> {
  const run = () => reconcileRows(ledger, facilitator, log, staleMs, shared)
  if (!ledger.exclusively) return run()
  return (await ledger.exclusively('agent-api:reconcile', run)) ?? { settled: 0, failed: 0, released: 0, unknown: 0 }
}

async function reconcileRows(
  ledger: LedgerStore,
  facilitator: Facilitator,
  log: Logger,
  staleMs: number,
  shared: SharedReconcile,
): Promise<Outcome> {
  const out = { settled: 0, failed: 0, released: 0, unknown: 0 }
  const now = Date.now()
  const staleAfter = (row: { instance?: string }) =>
    row.instance && shared.instanceId && row.instance !== shared.instanceId
      ? (shared.othersStaleMs ?? staleMs)
      : staleMs
  for (const row of await ledger.byState(['reserved', 'verified'])) {
    if (now - row.updated_at < staleAfter(row)) continue
    await ledger.transition(row.id, 'released', { reason: 'request ended before settlement (reconciled)' })
    out.released++
  }
  for (const row of await ledger.byState(['settling', 'pending'])) {
    // Rows of another chain family (Solana: runtime/pay/schemes/svm-exact/reconcile.ts) are reconciled by their scheme.
    if (!row.network.startsWith('eip155:')) continue
    // A `settling` row may belong to a settlement still running in this process: leave it to that request.
    if (row.state === 'settling' && now - row.updated_at < staleAfter(row)) continue
    const raw = JSON.parse(row.payload) as Record<string, unknown>
    const p = { x402Version: row.x402_version, raw, payload: raw.payload } as DecodedPayment
    let status: ChainStatus
    try {
      const req = JSON.parse(row.requirements) as PaymentRequirements
      status = await facilitator.status(row.tx_hash ?? '', p, req, Number(row.created_at))
    } catch (e) {
      log.warn('reconcile: chain unavailable', { payment_id: row.id, error: (e as Error).message })
      out.unknown++
      continue
    }
    if (status.state === 'settled') {
      // The proving transaction is recorded (found by the authorization's logs when the row had no hash), so a
      // result collected later carries it in PAYMENT-RESPONSE.
      const tx = status.tx || row.tx_hash || undefined
      if (await ledger.settleOnce(row.id, { reason: 'confirmed by reconciliation', tx })) out.settled++
    } else if (status.state === 'failed') {
      const reason = status.tx
        ? `authorization used by ${status.tx}, which did not pay us (reconciled)`
        : 'not on chain and expired (reconciled)'
      await ledger.transition(row.id, 'failed', { reason })
      out.failed++
    } else out.unknown++
  }
  if (out.settled + out.failed + out.released) log.info('ledger reconciled', out)
  return out
}
