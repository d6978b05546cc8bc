import { REASON } from '../reasons'
import type { ChainStatus, Facilitator } from '../types'

/** Reads of the chain after an answer that names a transaction not yet proven (an RPC behind the facilitator's). */
const PROOF_READS = 3
const PROOF_WAIT_MS = 500
/** The most the proof may add to a paid call (a slow RPC): past it the payment is pending, proven by the reconciler. */
const PROOF_BUDGET_MS = 15_000

/**
 * A remote facilitator's settle answer judged by the chain (RPC_URL beside FACILITATOR_URL): the facilitator's word
 * alone never counts. Whatever it answered (success, success:false, with or without a hash), the payment is
 * - settled only when a receipt proves this authorization paid us (the named transaction, or one found by the
 *   token's AuthorizationUsed + Transfer logs: runtime/pay/facilitator/settle/proof.ts), and then with that transaction;
 * - failed only when the chain says it can no longer pay us (its nonce paid someone else, or unused and expired);
 * - otherwise unknown: pending, never served, reconciled from the chain later (runtime/pay/schemes/exact/reconcile.ts); when the
 *   facilitator cleanly refused it (success:false, no transaction), `refused`: the payer is cooled down too.
 * A transport failure or timeout still throws (the gate keeps the payment pending).
 */
export function provenSettle(settle: Facilitator['settle'], status: Facilitator['status']): Facilitator['settle'] {
  return async (p, req, onSubmitted) => {
    const said = await settle(p, req, onSubmitted)
    const payer = said.payer ?? p.payload.authorization.from
    const prove = async (): Promise<ChainStatus> => {
      let chain: ChainStatus = { state: 'unknown' }
      for (let i = 0; i < PROOF_READS; i++) {
        if (i > 0) await Bun.sleep(PROOF_WAIT_MS * i)
        chain = await status(said.transaction ?? '', p, req).catch((): ChainStatus => ({ state: 'unknown' }))
        // Without a hash there is no receipt to wait for: the logs already answered.
        if (chain.state !== 'unknown' || !said.transaction) break
      }
      return chain
    }
    let timer: ReturnType<typeof setTimeout> | undefined
    const chain = await Promise.race([
      prove(),
      new Promise<ChainStatus>((resolve) => {
        timer = setTimeout(() => resolve({ state: 'unknown' }), PROOF_BUDGET_MS)
      }),
    ]).finally(() => clearTimeout(timer))
    const facilitatorSaid = said.success ? 'success' : `success:false (${said.errorReason ?? 'no reason'})`
    if (chain.state === 'settled') {
      const same = chain.tx.toLowerCase() === said.transaction?.toLowerCase()
      return {
        success: true,
        transaction: chain.tx,
        network: req.network,
        payer,
        ...(same && said.success ? { gasUsed: said.gasUsed, effectiveGasPrice: said.effectiveGasPrice } : {}),
      }
    }
    if (chain.state === 'failed')
      return {
        success: false,
        transaction: chain.tx ?? said.transaction ?? '',
        network: req.network,
        payer,
        errorReason: said.success ? REASON.transferEventMismatch : (said.errorReason ?? REASON.transactionFailed),
        note: `facilitator said ${facilitatorSaid}; the chain shows the authorization cannot pay us`,
      }
    return {
      success: false,
      transaction: said.transaction ?? '',
      network: req.network,
      payer,
      errorReason: REASON.settlementPending,
      pending: true,
      refused: !said.success && !said.pending && !said.transaction,
      note: `facilitator said ${facilitatorSaid}; not proven on chain yet`,
    }
  }
}
