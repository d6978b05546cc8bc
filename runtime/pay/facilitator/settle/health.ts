import type { FacilitatorHealth } from '../../types'
import type { Settler } from './settler'

/** Below this many settlements left, a settler is reported low and /health degrades. */
export const LOW_SETTLEMENTS = 100

/**
 * The settlement side's health from the last balance read (boot, every minute, lowered by each receipt):
 * per settler the balance, how many more settlements of `gas` it can pay at current fees, and its transactions
 * in flight. canPay is false when no settler can pay for one more settlement.
 */
export function settlerHealth(s: Settler, gas: bigint, reachable: boolean, lastError?: string): FacilitatorHealth {
  const fee = s.fees.current?.maxFeePerGas ?? 0n
  const per = gas * (fee > 0n ? fee : 1n)
  const settlers = s.lanes.map((l) => ({
    address: l.address,
    balance_wei: l.balance.toString(),
    settlements_left: Number(l.balance / per),
    in_flight: l.jobs.size,
  }))
  const canPay = settlers.some((x) => x.settlements_left >= 1)
  const low = settlers.filter((x) => x.settlements_left < LOW_SETTLEMENTS)
  const detail = !reachable
    ? `chain unreachable${lastError ? `: ${lastError}` : ''}`
    : !canPay
      ? 'no settler key can pay for gas: paid calls answer 503'
      : low.length
        ? `${low.length} settler key(s) can pay for fewer than ${LOW_SETTLEMENTS} more settlements: top up ${low.map((x) => x.address).join(', ')}`
        : undefined
  return { ok: reachable && low.length === 0, canPay, ...(detail ? { detail } : {}), settlers }
}
