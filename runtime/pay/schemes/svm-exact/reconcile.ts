/**
 * The Solana rows of the ledger against the chain (after a crash, a restart, or a settlement whose confirmation
 * timed out): a `settling`/`pending` row holds its transaction id (recorded before sending), so the chain says
 * whether it landed. Landed: settled exactly once. Failed on chain: failed. Never seen once the payment can no
 * longer land (its blockhash expired): failed, nothing moved. Otherwise left for the next round. A remote
 * facilitator's row has no id until its answer (its fee payer signs): one sent whose answer was lost is looked for on
 * chain by its message (locateSent), or left for the operator with an error in the log.
 * @module pay/schemes/svm-exact/reconcile
 */
import type { LedgerStore } from '../../../db/store'
import type { Logger } from '../../../sdk'
import { b64json } from '../../wire'
import { LOCATE_MAX, type SvmBackend } from './backend'
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

type Located = { tx: string | null } | 'unknown'

/**
 * A remote facilitator's payment whose answer was lost (no id: its fee payer signs): found on chain among the payee
 * token account's transactions since it was reserved, by its message. Found: its id. Surely absent once it can no
 * longer land (the search reached back past its reservation): none, so it is failed. Otherwise unknown: left for the
 * next round, or, when the search cannot reach that far back, for the operator with an error in the log.
 */
async function locateSent(
  row: { id: number; payload: string; created_at: number | string; payer: string; amount: string },
  backend: SvmBackend,
  now: number,
  log: Logger,
): Promise<Located> {
  let p: ReturnType<typeof decodeSvmPayment> = null
  try {
    p = decodeSvmPayment(b64json(JSON.parse(row.payload)))
  } catch {}
  const expired = now - Number(row.created_at) > SOLANA_PAYMENT_LIFETIME_S * 1000
  const operator = (why: string) => {
    log.error(
      `reconcile: solana payment sent to the remote facilitator without an answer; ${why}: find its transfer to the payee on chain (the kept transaction's message), then settle or fail the row by hand`,
      { payment_id: row.id, payer: row.payer, amount: row.amount },
    )
    return 'unknown' as const
  }
  if (!p) return operator('its kept transaction is unreadable')
  const { payTo, asset } = p.payload.accepted as unknown as { payTo: string; asset: string }
  // A minute's margin for the clocks of this host and the chain's block times.
  const sinceS = Math.floor(Number(row.created_at) / 1000) - 60
  let found: Awaited<ReturnType<SvmBackend['locate']>>
  try {
    found = await backend.locate(p.messageBytes, payTo, asset, sinceS)
  } catch (e) {
    log.warn('reconcile: solana chain unavailable', { payment_id: row.id, error: (e as Error).message })
    return 'unknown'
  }
  if (found.signature !== null) return { tx: found.signature }
  if (!expired) return 'unknown'
  if (found.complete) return { tx: null }
  return operator(`the payee's last ${LOCATE_MAX} transactions do not reach back to it`)
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
    let tx = row.tx_hash || (await idOf(row.payload, backend))
    let found: Located = { tx }
    if (!tx && backend.kind === 'remote') found = await locateSent(row, backend, now, log)
    if (found === 'unknown') {
      out.unknown++
      continue
    }
    tx = found.tx
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
      // Without a transaction it was never sent (or, remote, surely not on chain past its lifetime: locateSent); past
      // its lifetime (its blockhash expired) it cannot land any more.
      await ledger.transition(row.id, 'failed', { reason: 'not on chain and expired (reconciled)' })
      out.failed++
    } else out.unknown++
  }
  if (out.settled + out.failed + out.released) log.info('solana ledger reconciled', out)
  return out
}
