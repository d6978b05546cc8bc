/**
 * The Solana rows of the ledger against the chain (after a crash, a restart, or a settlement whose confirmation
 * timed out): a `settling`/`pending` row holds its transaction id (recorded before sending), so the chain says
 * whether it landed. Landed: settled exactly once. Failed on chain: failed. Never seen once the payment can no
 * longer land (its blockhash expired): failed, nothing moved. Otherwise left for the next round. A remote
 * facilitator's row without an id (sent, its answer lost) is left for the operator with an error in the log.
 * @module pay/schemes/svm-exact/reconcile
 */
import type { LedgerStore } from '../../../db/store'
import type { Logger } from '../../../sdk'
import { b64json } from '../../wire'
import type { SvmBackend } from './backend'
import { decodeSvmPayment } from './payload'
import { SOLANA_PAYMENT_LIFETIME_S } from './scheme'

/** The transaction id of a kept payment (the fee payer's signature of its message), or null when unreadable. */
async function idOf(payload: string, backend: SvmBackend): Promise<string | null> {
  try {
    const p = decodeSvmPayment(b64json(JSON.parse(payload)))
    return p ? await backend.transactionId(p.messageBytes) : null
  } catch {
    return null
  }
}

export interface SvmReconciled {
  settled: number
  failed: number
  released: number
  unknown: number
}

export async function reconcileSvm(
  ledger: LedgerStore,
  backend: SvmBackend,
  log: Logger,
  staleMs: number,
  othersStaleMs = staleMs,
): Promise<SvmReconciled> {
  const run = () => reconcileRows(ledger, backend, log, staleMs, othersStaleMs)
  if (!ledger.exclusively) return run()
  return (
    (await ledger.exclusively('agent-api:reconcile-solana', run)) ?? { settled: 0, failed: 0, released: 0, unknown: 0 }
  )
}

async function reconcileRows(
  ledger: LedgerStore,
  backend: SvmBackend,
  log: Logger,
  staleMs: number,
  othersStaleMs: number,
): Promise<SvmReconciled> {
  const out = { settled: 0, failed: 0, released: 0, unknown: 0 }
  const now = Date.now()
  const ours = (row: { network: string }) => row.network === backend.network
  // On a shared database, another instance's rows wait until that instance is presumed dead.
  const stale = (row: { updated_at: number; instance?: string }) =>
    now - row.updated_at >=
    (row.instance && ledger.instanceId && row.instance !== ledger.instanceId ? othersStaleMs : staleMs)
  for (const row of await ledger.byState(['reserved', 'verified'])) {
    if (!ours(row) || !stale(row)) continue
    await ledger.transition(row.id, 'released', { reason: 'request ended before settlement (reconciled)' })
    out.released++
  }
  for (const row of await ledger.byState(['settling', 'pending'])) {
    if (!ours(row) || (row.state === 'settling' && !stale(row))) continue
    // The id is recorded before sending, and can always be derived again from the kept transaction (a power cut may
    // take the write that recorded it, never the durable `settling` one before it).
    const tx = row.tx_hash || (await idOf(row.payload, backend))
    if (!tx && backend.kind === 'remote') {
      // Sent to the remote facilitator, its answer lost: its fee payer's signature (the id) is unknown here, and the
      // transfer may have landed. Never failed nor settled blindly: the operator decides from the chain.
      log.error(
        "reconcile: solana payment sent to the remote facilitator without an answer; its outcome is unknown: find its transfer to the payee on chain (the kept transaction's message), then settle or fail the row by hand",
        { payment_id: row.id, payer: row.payer, amount: row.amount, state: row.state },
      )
      out.unknown++
      continue
    }
    let state: Awaited<ReturnType<SvmBackend['status']>> = 'unseen'
    if (tx) {
      try {
        state = await backend.status(tx)
      } catch (e) {
        log.warn('reconcile: solana chain unavailable', { payment_id: row.id, error: (e as Error).message })
        out.unknown++
        continue
      }
    }
    if (state === 'landed') {
      if (await ledger.settleOnce(row.id, { tx: tx ?? undefined, reason: 'confirmed by reconciliation' })) out.settled++
    } else if (state === 'failed') {
      await ledger.transition(row.id, 'failed', { reason: 'failed on chain (reconciled)' })
      out.failed++
    } else if (!tx || now - Number(row.created_at) > SOLANA_PAYMENT_LIFETIME_S * 1000) {
      // Without a transaction it was never sent; past its lifetime (its blockhash expired) it cannot land any more.
      await ledger.transition(row.id, 'failed', { reason: 'not on chain and expired (reconciled)' })
      out.failed++
    } else out.unknown++
  }
  if (out.settled + out.failed + out.released) log.info('solana ledger reconciled', out)
  return out
}
