/**
 * The `exact` scheme's gate as the server's EIP-3009 settlement engine (runtime/pay/server/eip3009-settlement.ts),
 * for boot to hand to every other scheme that settles EIP-3009 authorizations (MPP's `evm` `charge`): the same
 * ledger, payer holds, failure throttles and reconciliation, and the same kept results (collected again after a
 * settlement that was pending).
 * @module pay/schemes/exact/engine
 */
import type { Eip3009Settlement } from '../../server/eip3009-settlement'
import { FacilitatorUnavailable, type PaymentGate } from './gate'
import type { PaidResults } from './kept-results'

export const settlementEngine = (gate: PaymentGate, results: PaidResults): Eip3009Settlement => ({
  authorize: (payment, req, slug, tier, requestId, client, protocol) =>
    gate.authorize(payment, req, slug, tier, requestId, client, protocol),
  settle: (t) => gate.settle(t),
  release: (t, reason) => gate.release(t, reason),
  failed: (t, status, code) => gate.failed(t, status, code),
  unavailable: (e) => e instanceof FacilitatorUnavailable,
  results,
})
